// The warm benches of codec `jackson` (runtimes/jvm/codec-jackson.toml): see Bench.

package thaw.jmh;

public class JacksonBench extends Bench {
    @Override
    protected String codec() {
        return "jackson";
    }
}
