// JMH's single shot of what a cold child times as init + first_op: in a fresh fork, the cold
// child's own library side made (init) and called once (own mode, the child's classes), after
// the model's classes are initialised and the input read in setup, untimed, as the child does
// before its clock (its `model` and `fixture` phases). One invocation per fork, no warm-up.
//
// It exists for one comparison (scripts/jvm-single-shot.py, docs/runtimes.md): the same call
// timed by thaw's child and by JMH's SingleShotTime, and the classes each process loads before
// the timed call and inside it. With -Dthaw.mark=true (the class-counting run only, so that no
// timed run loads them) the timed call begins by loading `Start` and ends by loading `End`, so
// that `-Xlog:class+load` marks both in the fork's log. Not a warm bench: Main never runs it,
// and analysis reads no result of it.
//
// The documents folder (-Dthaw.docs) holds <fixture>.json and, for `ser`, <fixture>.tree.txt, the
// neutral tree a cold `ser` child builds its value from (a run folder's fixtures/).

package thaw.jmh;

import java.nio.file.Files;
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
import thaw.jvm.Harness;
import thaw.jvm.Tree;

@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgs = {Flags.XMS, Flags.XMX, Flags.GC})
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Threads(1)
public class FirstCall {
    @Param({"kotlinx", "gson", "jackson", "fory"})
    public String codec;

    @Param({"de", "ser"})
    public String op;

    @Param({"users-2kb"})
    public String fixture;

    private Harness.Child child;
    private String model;
    private byte[] copy;
    private Object value;
    private boolean mark;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        mark = Boolean.getBoolean("thaw.mark");
        Documents.Document doc = Documents.load(Documents.folder(), fixture);
        model = doc.model();
        child = Codecs.get(codec).child();
        if (!child.supports(model)) {
            throw new IllegalStateException(codec + " does not express " + model);
        }
        for (Class<?> c : child.modelClasses(model)) {
            Class.forName(c.getName(), true, c.getClassLoader());
        }
        if (op.equals("de")) {
            copy = doc.bytes().clone();
        } else {
            byte[] tree = Files.readAllBytes(Documents.folder().resolve(fixture + ".tree.txt"));
            value = child.fromTree(model, Tree.parse(tree));
        }
    }

    @Benchmark
    public Object firstCall() throws Exception {
        if (mark) Start.mark();
        Harness.Library lib = child.library();
        Object out;
        if (op.equals("de")) {
            lib.init(model);
            out = lib.de(copy);
        } else {
            lib.initSer(model);
            out = lib.ser(value);
        }
        if (mark) End.mark();
        return out;
    }

    /** Loaded as the timed call begins: its line in the class-load log marks the start. */
    static final class Start {
        static void mark() {}
    }

    /** Loaded as the timed call ends. */
    static final class End {
        static void mark() {}
    }
}
