// The warm benches of codec `kotlinx` (runtimes/jvm/codec-kotlinx.toml): see Bench.

package thaw.jmh;

public class KotlinxBench extends Bench {
    @Override
    protected String codec() {
        return "kotlinx";
    }
}
