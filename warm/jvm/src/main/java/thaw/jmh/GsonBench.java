// The warm benches of codec `gson` (runtimes/jvm/codec-gson.toml): see Bench.

package thaw.jmh;

public class GsonBench extends Bench {
    @Override
    protected String codec() {
        return "gson";
    }
}
