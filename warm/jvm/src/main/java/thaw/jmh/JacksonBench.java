// The warm benches of codec `jackson` (cold/external/jvm/codec-jackson.toml): see Bench.

package thaw.jmh;

public class JacksonBench extends Bench {
    @Override
    protected String codec() {
        return "jackson";
    }
}
