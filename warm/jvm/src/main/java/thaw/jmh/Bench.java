// The warm benches of one JVM codec: `de` (the document's bytes to the library's model value)
// and `ser` (that value to JSON), per fixture. Each codec is a subclass (GsonBench, JacksonBench,
// ForyBench, KotlinxBench) naming only its cold codec id, so a result's benchmark name says the
// codec and the op, and its `fixture` parameter the fixture:
//
//     thaw.jmh.<Codec>Bench.<op>   params {fixture: users-2kb}
//
// (analysis/src/inputs/jmh.rs reads exactly that). The library is the cold child's own library
// side, made as the child makes it (one mapper, Gson, ForyJson or Json per fork and thread, its
// natural `de` and `ser` calls: Codecs.Codec#newLibrary), on the cold child's own model classes
// (own mode); for Clients of kotlinx and Fory, which their cold children do not express, the
// library with the seed's adapters (Codecs.SEED_ADAPTERS).
//
// Defaults are the seed's (Flags): 2 forks, 1 × 5 s warm-up, 3 × 1 s measurement, 1 thread,
// throughput and average time. thaw.jmh.Main overrides them for a quick pass or another thread
// count; run through JMH's own main, the same annotations apply.

package thaw.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import thaw.jvm.Harness;

@State(Scope.Thread)
@BenchmarkMode({Mode.Throughput, Mode.AverageTime})
@OutputTimeUnit(TimeUnit.SECONDS)
// `jvmArgs`, not `jvmArgsAppend`: JMH would otherwise hand the host JVM's own flags (its small
// heap, its collector) to every fork.
@Fork(value = Flags.FORKS, jvmArgs = {Flags.XMS, Flags.XMX, Flags.GC})
@Warmup(iterations = Flags.WARMUP_ITERATIONS, time = Flags.WARMUP_SECONDS, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = Flags.ITERATIONS, time = Flags.ITERATION_SECONDS, timeUnit = TimeUnit.SECONDS)
@Threads(1)
public abstract class Bench {
    /**
     * The fixture: `<thaw.docs>/<fixture>.json`. Every fixture of the warm JVM track is listed;
     * a codec that does not express a fixture's model refuses it in setup with its reason (Main
     * never asks it to; JMH's own main would).
     */
    @Param({"users-2kb", "users-1kb", "users-10kb", "users-100kb", "users-1000kb",
            "clients-1kb", "clients-10kb", "clients-100kb", "clients-1000kb"})
    public String fixture;

    private Harness.Library lib;
    private byte[] document;
    private Object value;

    /** The cold codec id this bench measures (`gson`, `jackson`, `fory`, `kotlinx`). */
    protected abstract String codec();

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) throws Exception {
        String name = params.getBenchmark();
        String op = name.substring(name.lastIndexOf('.') + 1);
        Codecs.Codec c = Codecs.get(codec());
        String cell = c.id() + " " + fixture + " " + op;
        // JMH instantiates a generated subclass of the bench class (thaw.jmh.jmh_generated...).
        if (!Class.forName(c.benchClass()).isInstance(this)) {
            throw new IllegalStateException(cell + ": " + getClass().getName() + " is not a " + c.benchClass()
                + ", the bench of " + c.id());
        }
        Documents.Document doc = Documents.load(Documents.folder(), fixture);
        if (!c.supports(doc.model())) {
            throw new IllegalStateException(cell + ": unsupported, not measured: " + c.unsupported(doc.model()));
        }
        lib = c.newLibrary(doc.model());
        lib.init(doc.model());
        if (!Boolean.getBoolean(Flags.GATED)) {
            String failed = Gate.roundTrip(lib, doc);
            if (failed != null) {
                throw new IllegalStateException(cell + ": refused by the gate, not measured: " + failed);
            }
        }
        document = doc.bytes();
        // `ser` starts from the value decoded once from the document, before anything is timed.
        value = op.equals("ser") ? lib.de(document.clone()) : null;
    }

    /**
     * One decode of the document (the same bytes every call: no JVM library here parses in place,
     * and a copy per call would be timed with it). Gson and kotlinx read text, so their `de`
     * decodes the bytes from UTF-8 inside the call, as their cold children do.
     */
    @Benchmark
    public Object de() throws Exception {
        return lib.de(document);
    }

    /** One encode of the decoded value: the library's natural output (a new byte[] or String). */
    @Benchmark
    public Object ser() throws Exception {
        return lib.ser(value);
    }
}
