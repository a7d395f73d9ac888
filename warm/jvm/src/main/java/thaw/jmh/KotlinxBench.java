// The warm benches of codec `kotlinx` (cold/external/jvm/codec-kotlinx.toml): see Bench.

package thaw.jmh;

public class KotlinxBench extends Bench {
    @Override
    protected String codec() {
        return "kotlinx";
    }
}
