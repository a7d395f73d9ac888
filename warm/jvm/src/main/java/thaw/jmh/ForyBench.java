// The warm benches of codec `fory` (runtimes/jvm/codec-fory.toml): see Bench.

package thaw.jmh;

public class ForyBench extends Bench {
    @Override
    protected String codec() {
        return "fory";
    }
}
