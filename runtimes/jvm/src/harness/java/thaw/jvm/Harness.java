// thaw's JVM child harness: the cold child protocol (docs/child-protocol.md) around a library, so
// that a library's child class holds only what is the library's. A child's `main` stamps `main`
// first (System.nanoTime reads CLOCK_MONOTONIC on Linux), then calls Harness.run.
//
// `model`: every child of a mode does the same model work before the clock, in both ops: it reads
// the input's root key from the input's first bytes and loads and initialises its model's classes
// (Child.modelClasses: Class.forName with initialisation, in the order the model declares them),
// so a `de` child's first call no longer pays the classes a `ser` child met building its value.
// With -Dthaw.diagnose.model=true the harness loads Diagnostics right after the `model` stamp, a
// marker in -Xlog:class+load (check-children.sh compares what each child loaded before it).
//
// Nothing here touches a JSON library or Kotlin (the floor's class path is this alone): a `ser`
// input (the neutral tree) is read by hand (Tree), a typed child builds its model from it by
// hand, and the checksum is computed by hand (Digest):
//   - `ser`: 64-bit FNV-1a of the output's UTF-8 bytes;
//   - `de`: 64-bit FNV-1a of a structural walk of the last decoded value, written by hand in the
//     model classes (Digest says how), so no library code runs between `done` and `checked`;
//   - the floor (`baseline`), both ops: FNV-1a of the input's bytes (it hands them back).
// The decoded value written back by the library (for the runner's check by meaning) is made
// only when `--check-file` is given (the preflight), after `checked`.
//
// `--window W` is curve mode (Curve): the operations run in Curve's loop, which reads the clock
// at its schedule and keeps one working copy of a `de` input instead of one per call; the check,
// the check file and the line are as without it, the curve line printed before the line.

package thaw.jvm;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Properties;

public final class Harness {
    static final int FAILURE_EXIT = 2;

    /**
     * A child's model side: what runs before the clock (the model of the input, the value a `ser`
     * child writes) and in the check (the digest), with no library code. Its class is the main
     * class: it must name no library type, so that the JVM's verifier loads none before `main`.
     */
    public interface Child {
        /** Whether the child expresses `model` (`users`, `clients`: the root object's key). */
        boolean supports(String model);

        /**
         * The classes of `model`, declared once per model (the root first): the harness loads and
         * initialises them in the `model` phase. None for a floor with no model.
         */
        default Class<?>[] modelClasses(String model) {
            return new Class<?>[0];
        }

        /** The value a `ser` child writes, built by hand from the neutral tree. */
        Object fromTree(String model, Tree tree);

        /** The structural digest of a decoded value, by hand (Digest; no library, no reflection). */
        long digest(String model, Object decoded);

        /** The library's side, made in `init`: its class, and with it the library's, loads there. */
        Library library();

        /** The floor: `de` hands the copy back, `ser` the input's bytes. */
        default boolean baseline() {
            return false;
        }

        /**
         * A floor that still builds its model from a `ser` input before the clock (and keeps it to
         * the end), as the typed children it is the floor of do (the common-DTO floor).
         */
        default boolean baselineBuildsModel() {
            return false;
        }
    }

    /** A child's library side: only the library's calls. */
    public interface Library {
        /** The library's state for `model`, made once (its classes load here). */
        void init(String model) throws Exception;

        /** The state of a `ser` child, where it needs more than `de` (kotlinx-common); init's by default. */
        default void initSer(String model) throws Exception {
            init(model);
        }

        /** One decode of the document (a fresh copy per call). */
        Object de(byte[] data) throws Exception;

        /**
         * One encode: a new byte[] of UTF-8 (a library that writes a String has it encoded inside
         * the call, so every JVM child hands over the same kind of output; the floor hands its
         * input's bytes back). Anything else fails the child after the clock.
         */
        Object ser(Object value) throws Exception;

        /** The decoded value written back by the same library (the preflight only). */
        byte[] writeBack(Object decoded) throws Exception;

        /** The library's version. */
        String version();
    }

    /** The floor's library side: no library. */
    public static final class NoLibrary implements Library {
        public void init(String model) {}
        public Object de(byte[] data) { return data; }
        public byte[] ser(Object value) { return (byte[]) value; }
        public byte[] writeBack(Object decoded) { return (byte[]) decoded; }
        public String version() { return System.getProperty("java.version"); }
    }

    public static void fail(String message) {
        System.err.println("child: " + message);
        System.exit(FAILURE_EXIT);
    }

    public static void run(long mainNs, String[] argv, Child child) {
        try {
            runChild(mainNs, argv, child);
        } catch (Throwable e) {
            fail(e.toString());
        }
    }

    private static void runChild(long mainNs, String[] argv, Child child) throws Exception {
        if (argv.length == 1 && argv[0].equals("--version")) {
            System.out.println(child.library().version());
            return;
        }
        String op = null, input = null, drops = "end", checkFile = null, batchText = null;
        String windowText = null;
        for (int i = 0; i < argv.length; i += 2) {
            if (i + 1 >= argv.length) fail(argv[i] + " needs a value");
            String v = argv[i + 1];
            switch (argv[i]) {
                case "--op": op = v; break;
                case "--batch": batchText = v; break;
                case "--input": input = v; break;
                case "--drops": drops = v; break;
                case "--check-file": checkFile = v; break;
                case "--window": windowText = v; break;
                default: fail("unknown argument `" + argv[i] + "`");
            }
        }
        if (op == null || input == null || batchText == null) fail("missing --op, --batch or --input");
        if (!op.equals("de") && !op.equals("ser")) fail("--op " + op + ": give ser or de");
        if (!drops.equals("end") && !drops.equals("each")) fail("--drops " + drops + ": give end or each");
        int batch = parseBatch(batchText);
        Curve curve = windowText == null ? null : new Curve(batch, parseWindow(windowText));
        boolean de = op.equals("de");
        boolean dropEach = drops.equals("each");

        // The model: the same work in every child of a mode, not charged to the library.
        String model = null;
        if (!child.baseline() || child.baselineBuildsModel()) {
            model = loadModel(child, input, de);
        }
        long modelNs = System.nanoTime();
        if (Boolean.getBoolean("thaw.diagnose.model")) Diagnostics.modelStamped(modelNs);

        // The input, not charged to the library.
        byte[] data = Files.readAllBytes(Paths.get(input));
        byte[][] copies = null;
        byte[] work = null;
        Object value = null;
        Object built = null;
        if (de && curve != null) {
            work = data.clone(); // curve mode's one working copy, refreshed before each call
        } else if (de) {
            copies = new byte[batch][];
            for (int i = 0; i < batch; i++) copies[i] = data.clone();
        } else if (!child.baseline()) {
            value = child.fromTree(model, Tree.parse(data));
        } else {
            value = data;
            if (child.baselineBuildsModel()) built = child.fromTree(model, Tree.parse(data));
        }
        // Every decoded value is kept to the end (unless `--drops each`), so no drop is timed.
        Object[] keep = de && !dropEach && curve == null ? new Object[batch] : null;
        long fixtureNs = System.nanoTime();

        Library lib = child.library();
        if (de) lib.init(model);
        else lib.initSer(model);
        long initNs = System.nanoTime();

        long firstNs = 0;
        long doneNs;
        Object out = null;
        if (curve != null) {
            out = curve.run(lib, de, data, work, value);
            firstNs = curve.first();
            doneNs = curve.done();
        } else if (de) {
            for (int i = 0; i < batch; i++) {
                out = lib.de(copies[i]);
                if (keep != null) keep[i] = out;
                else copies[i] = null; // --drops each: the value and its copy go now
                if (i == 0) firstNs = System.nanoTime();
            }
            doneNs = System.nanoTime();
        } else {
            for (int i = 0; i < batch; i++) {
                out = lib.ser(value);
                if (i == 0) firstNs = System.nanoTime();
            }
            doneNs = System.nanoTime();
        }

        // The check: no library code, only the model's walk and FNV-1a.
        long check;
        long size;
        byte[] output = null;
        if (child.baseline()) {
            check = Digest.fnv1a(data);
            size = data.length;
        } else if (de) {
            check = child.digest(model, out);
            size = data.length;
        } else {
            if (!(out instanceof byte[])) fail("ser handed over a " + out.getClass().getName() + ", not a byte[]");
            output = (byte[]) out;
            check = Digest.fnv1a(output);
            size = output.length;
        }
        long checkedNs = System.nanoTime();
        long clock1000Ns = curve == null ? 0 : Curve.clock1000();
        boolean diagnose = Boolean.getBoolean("thaw.diagnose");
        if (diagnose) Diagnostics.afterChecked(checkedNs);

        // The preflight only: what the operations produced, for the runner's check by meaning.
        if (checkFile != null) {
            byte[] written = child.baseline() ? data : de ? lib.writeBack(out) : output;
            Files.write(Paths.get(checkFile), written);
        }
        long[] memory = memoryKib();
        StringBuilder line = new StringBuilder(200)
            .append("{\"main\":").append(mainNs)
            .append(",\"model\":").append(modelNs)
            .append(",\"fixture\":").append(fixtureNs)
            .append(",\"init\":").append(initNs)
            .append(",\"first\":").append(firstNs)
            .append(",\"done\":").append(doneNs)
            .append(",\"checked\":").append(checkedNs)
            .append(",\"checksum\":\"").append(Digest.hex(check))
            .append("\",\"bytes\":").append(size)
            .append(",\"hwm_kib\":").append(memory[0])
            .append(",\"rss_kib\":").append(memory[1])
            .append("}\n");
        PrintStream stdout = System.out;
        if (curve != null) stdout.write(curve.line(clock1000Ns));
        stdout.write(line.toString().getBytes(StandardCharsets.UTF_8));
        stdout.flush();
        if (stdout.checkError()) fail("cannot write the line on stdout");
        Reference.reachabilityFence(built);
        Reference.reachabilityFence(keep);
        Reference.reachabilityFence(copies);
        if (diagnose) Diagnostics.mainReturns(checkedNs);
    }

    /** How much of the input the `model` phase reads to find its root key. */
    private static final int HEAD_BYTES = 4096;

    /**
     * The input's model (its root key, from its first HEAD_BYTES), and its classes loaded and
     * initialised; fails when the child does not express it.
     */
    private static String loadModel(Child child, String input, boolean de) throws Exception {
        byte[] head;
        try (InputStream in = Files.newInputStream(Paths.get(input))) {
            head = in.readNBytes(HEAD_BYTES);
        }
        String model = de ? Tree.documentModel(head) : Tree.treeModel(head);
        if (model == null || !child.supports(model)) {
            fail("model `" + model + "` of " + input + ": not one this child expresses");
        }
        for (Class<?> c : child.modelClasses(model)) {
            Class.forName(c.getName(), true, c.getClassLoader());
        }
        return model;
    }

    private static int parseBatch(String text) {
        if (text.isEmpty() || text.length() > 7) fail("--batch " + text + ": give 1 to 1000000");
        int n = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') fail("--batch " + text + ": give 1 to 1000000");
            n = n * 10 + (c - '0');
        }
        if (n < 1 || n > 1_000_000) fail("--batch " + text + ": give 1 to 1000000");
        return n;
    }

    private static int parseWindow(String text) {
        boolean digits = !text.isEmpty() && text.length() <= 7 && text.charAt(0) != '0';
        for (int i = 0; digits && i < text.length(); i++) {
            char c = text.charAt(i);
            digits = c >= '0' && c <= '9';
        }
        if (!digits) fail("--window " + text + ": give a whole number from 1 to 9999999");
        return Integer.parseInt(text);
    }

    /** VmHWM and VmRSS of /proc/self/status, KiB. */
    static long[] memoryKib() throws IOException {
        String status = new String(Files.readAllBytes(Paths.get("/proc/self/status")),
            StandardCharsets.US_ASCII);
        return new long[] {statusKib(status, "VmHWM:"), statusKib(status, "VmRSS:")};
    }

    private static long statusKib(String status, String key) {
        int at = status.indexOf(key);
        if (at < 0) return 0;
        long n = 0;
        for (int i = at + key.length(); i < status.length(); i++) {
            char c = status.charAt(i);
            if (c >= '0' && c <= '9') n = n * 10 + (c - '0');
            else if (c == '\n' || (c != ' ' && c != '\t')) break;
        }
        return n;
    }

    /**
     * A library's version: its jar's manifest (Implementation-Version), else its jar's Maven
     * metadata (META-INF/maven/GROUP/ARTIFACT/pom.properties), else "unknown".
     */
    public static String jarVersion(Class<?> anchor, String group, String artifact) {
        Package p = anchor.getPackage();
        String v = p == null ? null : p.getImplementationVersion();
        if (v != null && !v.isEmpty()) return v;
        String pom = "/META-INF/maven/" + group + "/" + artifact + "/pom.properties";
        try (InputStream in = anchor.getResourceAsStream(pom)) {
            if (in == null) return "unknown";
            Properties props = new Properties();
            props.load(in);
            return props.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
