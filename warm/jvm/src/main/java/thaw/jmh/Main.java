// The warm JVM track's command: the gate, then JMH over the cells that passed it, with one result
// file for the whole run in JMH's own format (written by JMH's own formatter).
//
//   java -jar benchmarks.jar --docs DIR [--libs gson,jackson,fory,kotlinx] [--ops de,ser]
//        [--fixtures users-2kb,...] [--modes thrpt,avgt] [--threads N] [--quick]
//        [-rf json -rff FILE] [--gate-csv FILE] [--probe] [-- JMH options]
//
// 1. The gate runs in its own JVM (this jar, --gate-only), so that no library thread (Fory's
//    background code generation) outlives it beside the measured forks: every requested codec ×
//    fixture is unsupported (the cold codec's toml says why), refused (its round trip differs
//    from the document: the first differing path), or passed. --gate-csv writes every decision
//    (fixture,op,codec,decision,reason: the format of results/warm/gate.csv).
// 2. JMH measures the passed cells only: one JMH run per group of (codec, op) with the same
//    fixtures and per mode (throughput in ops/s, average time in ns/op); all results go into the
//    one -rff file. A fixture a codec does not express is never handed to it.
// The exit status is 0 when every requested supported cell passed the gate and was measured, 1
// when one was refused or failed in JMH (the others are still measured and written), 2 on a
// usage or set-up error.

package thaw.jmh;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import thaw.jvm.Harness;

public final class Main {
    static final List<String> OPS = List.of("de", "ser");
    static final List<String> FIXTURES = List.of("users-2kb", "users-1kb", "users-10kb", "users-100kb",
        "users-1000kb", "clients-1kb", "clients-10kb", "clients-100kb", "clients-1000kb");
    static final List<String> MODES = List.of("thrpt", "avgt");

    static final String USAGE = String.join("\n",
        "usage: java -jar benchmarks.jar --docs DIR [options] [-- JMH options]",
        "",
        "  --docs DIR          the documents: DIR/<fixture>.json (cargo run --release -p fixtures -- generate --out DIR ...)",
        "  --libs LIST         codecs, comma-separated (default: kotlinx,gson,jackson,fory)",
        "  --ops LIST          de,ser (default: both)",
        "  --fixtures LIST     fixtures (default: " + String.join(",", FIXTURES) + ")",
        "  --modes LIST        thrpt (ops/s), avgt (ns/op) (default: both)",
        "  --threads N         benchmark threads (default 1)",
        "  --quick             1 fork, 1 x 1 s warm-up, 2 x 1 s (default: the seed's 2 forks, 1 x 5 s, 3 x 1 s)",
        "  -rf FORMAT -rff FILE  one result file for the whole run, JMH's own format (json, csv, text, ...)",
        "  --gate-csv FILE     the gate's decision for every cell considered (fixture,op,codec,decision,reason)",
        "  --gate-only         run the gate and stop",
        "  --probe             run the gate on unsupported cells too, to show what they do (never measured)",
        "  -- JMH options      passed to JMH (e.g. -prof gc, -jvmArgsAppend ...); thaw's own options win",
        "");

    private Main() {}

    public static void main(String[] argv) {
        int status;
        try {
            status = run(argv);
        } catch (UsageException e) {
            if (e.getMessage().equals("help")) {
                System.out.print(USAGE);
                status = 0;
            } else {
                System.err.println("thaw-jmh: " + e.getMessage());
                System.err.print(USAGE);
                status = 2;
            }
        } catch (Throwable e) {
            System.err.println("thaw-jmh: " + e);
            e.printStackTrace();
            status = 2;
        }
        System.out.flush();
        System.exit(status);
    }

    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    /** What the command line asks. */
    static final class Args {
        Path docs;
        List<String> libs = new ArrayList<>(Codecs.BENCHES.keySet());
        List<String> ops = OPS;
        List<String> fixtures = FIXTURES;
        List<String> modes = MODES;
        Integer threads;
        boolean quick;
        String resultFormat;
        String resultFile;
        String gateCsv;
        String cellsOut;
        boolean gateOnly;
        boolean probe;
        List<String> jmh = new ArrayList<>();
    }

    static Args parse(String[] argv) throws UsageException {
        Args a = new Args();
        for (int i = 0; i < argv.length; i++) {
            String k = argv[i];
            if (k.equals("--")) {
                a.jmh.addAll(Arrays.asList(argv).subList(i + 1, argv.length));
                break;
            }
            switch (k) {
                case "-h": case "--help": throw new UsageException("help");
                case "--quick": a.quick = true; continue;
                case "--gate-only": a.gateOnly = true; continue;
                case "--probe": a.probe = true; continue;
                default: break;
            }
            if (i + 1 >= argv.length) throw new UsageException(k + " needs a value");
            String v = argv[++i];
            switch (k) {
                case "--docs": a.docs = Paths.get(v); break;
                case "--libs": a.libs = list(v, new ArrayList<>(Codecs.BENCHES.keySet()), "--libs"); break;
                case "--ops": a.ops = list(v, OPS, "--ops"); break;
                case "--fixtures": a.fixtures = list(v, null, "--fixtures"); break;
                case "--modes": a.modes = list(v, MODES, "--modes"); break;
                case "--threads":
                    try {
                        a.threads = Integer.parseInt(v);
                    } catch (NumberFormatException e) {
                        a.threads = -1;
                    }
                    if (a.threads < 1 || a.threads > 1024) throw new UsageException("--threads " + v + ": give 1 to 1024");
                    break;
                case "-rf": a.resultFormat = v; break;
                case "-rff": a.resultFile = v; break;
                case "--gate-csv": a.gateCsv = v; break;
                case "--cells-out": a.cellsOut = v; break;
                default: throw new UsageException("unknown option `" + k + "` (JMH's own go after `--`)");
            }
        }
        if (a.docs == null) throw new UsageException("--docs DIR is needed");
        for (String f : a.fixtures) {
            if (!Documents.validName(f)) throw new UsageException("--fixtures: `" + f + "` is not a fixture name");
        }
        if (a.resultFormat != null && a.resultFile == null) throw new UsageException("-rf needs -rff FILE");
        return a;
    }

    /** A comma-separated list, each item one of `allowed` (any, when null), without repeats. */
    static List<String> list(String v, List<String> allowed, String what) throws UsageException {
        Set<String> out = new LinkedHashSet<>();
        for (String s : v.split(",")) {
            s = s.strip();
            if (s.isEmpty()) continue;
            if (allowed != null && !allowed.contains(s)) {
                throw new UsageException(what + ": `" + s + "` is not one of " + String.join(", ", allowed));
            }
            out.add(s);
        }
        if (out.isEmpty()) throw new UsageException(what + " is empty");
        return new ArrayList<>(out);
    }

    /** One gate decision (the columns of results/warm/gate.csv). */
    record Decision(String fixture, String op, String codec, String decision, String reason) {}

    static int run(String[] argv) throws Exception {
        Args a = parse(argv);
        System.setProperty(Flags.DOCS, a.docs.toAbsolutePath().toString());
        if (a.gateOnly) return gate(a);

        // 1. The gate, in its own JVM.
        Path cells = Files.createTempFile("thaw-jmh-cells", ".txt");
        try {
            List<String> cmd = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms64m", "-Xmx1g", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "--gate-only",
                "--docs", a.docs.toAbsolutePath().toString(),
                "--libs", String.join(",", a.libs), "--ops", String.join(",", a.ops),
                "--fixtures", String.join(",", a.fixtures), "--cells-out", cells.toString()));
            if (a.gateCsv != null) cmd.addAll(List.of("--gate-csv", a.gateCsv));
            if (a.probe) cmd.add("--probe");
            int gateStatus = new ProcessBuilder(cmd).inheritIO().start().waitFor();
            if (gateStatus != 0 && gateStatus != 1) {
                System.err.println("thaw-jmh: the gate could not run (exit " + gateStatus + "); nothing measured");
                return 2;
            }
            boolean refused = gateStatus == 1;
            List<String[]> passed = new ArrayList<>();
            for (String line : Files.readAllLines(cells, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) passed.add(line.split("\t"));
            }
            return measure(a, passed) || refused ? 1 : 0;
        } finally {
            Files.deleteIfExists(cells);
        }
    }

    /** The gate over every requested cell, in this JVM; 0 when none was refused, 1 otherwise. */
    static int gate(Args a) throws Exception {
        Path folder = Documents.folder();
        List<Decision> decisions = new ArrayList<>();
        List<String> passed = new ArrayList<>();
        Map<String, Documents.Document> docs = new LinkedHashMap<>();
        for (String f : a.fixtures) docs.put(f, Documents.load(folder, f));
        boolean refused = false;
        System.out.println("# thaw gate: each codec's de of each document, written by its ser, read back by Jackson's tree"
            + " (numbers within " + Gate.MAX_ULPS + " ULP) against the document's; " + System.getProperty("java.vm.name")
            + " " + System.getProperty("java.version"));
        for (String id : a.libs) {
            Codecs.Codec c = Codecs.get(id);
            Map<String, Harness.Library> libs = new LinkedHashMap<>();
            for (Documents.Document doc : docs.values()) {
                String verdict;
                if (!c.supports(doc.model())) {
                    String why = c.unsupported(doc.model());
                    for (String op : a.ops) decisions.add(new Decision(doc.fixture(), op, id, "unsupported", why));
                    verdict = "unsupported, not measured: " + why;
                    if (a.probe) {
                        String probe;
                        try {
                            Harness.Library lib = c.newLibrary(doc.model());
                            lib.init(doc.model());
                            probe = Gate.roundTrip(lib, doc);
                        } catch (Throwable e) {
                            probe = "init failed: " + Gate.oneLine(e);
                        }
                        verdict += "\n      probe (for information): " + (probe == null ? "its round trip matches" : probe);
                    }
                } else {
                    Harness.Library lib = libs.get(doc.model());
                    String failed;
                    try {
                        if (lib == null) {
                            lib = c.newLibrary(doc.model());
                            lib.init(doc.model());
                            libs.put(doc.model(), lib);
                        }
                        failed = Gate.roundTrip(lib, doc);
                    } catch (Throwable e) {
                        failed = "init failed: " + Gate.oneLine(e);
                    }
                    String adapters = c.adapters(doc.model());
                    if (failed == null) {
                        for (String op : a.ops) {
                            decisions.add(new Decision(doc.fixture(), op, id, "run", adapters == null ? "" : adapters));
                            passed.add(id + "\t" + doc.fixture() + "\t" + op);
                        }
                        verdict = adapters == null ? "pass" : "pass, " + adapters;
                    } else {
                        refused = true;
                        for (String op : a.ops) {
                            decisions.add(new Decision(doc.fixture(), op, id, "refused", failed));
                            System.err.println("thaw-jmh: REFUSED " + id + " " + doc.fixture() + " " + op
                                + ", not measured: " + failed);
                        }
                        verdict = "REFUSED, not measured (de and ser): " + failed;
                    }
                }
                System.out.printf(Locale.ROOT, "  %-8s %-15s %s%n", id, doc.fixture(), verdict);
            }
        }
        if (a.gateCsv != null) writeGateCsv(Paths.get(a.gateCsv), decisions);
        if (a.cellsOut != null) Files.write(Paths.get(a.cellsOut), passed, StandardCharsets.UTF_8);
        return refused ? 1 : 0;
    }

    static void writeGateCsv(Path file, List<Decision> decisions) throws IOException {
        StringBuilder out = new StringBuilder("fixture,op,codec,decision,reason\n");
        for (Decision d : decisions) {
            out.append(csv(d.fixture())).append(',').append(csv(d.op())).append(',').append(csv(d.codec()))
                .append(',').append(csv(d.decision())).append(',').append(csv(d.reason())).append('\n');
        }
        if (file.getParent() != null) Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        Files.writeString(tmp, out, StandardCharsets.UTF_8);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    static String csv(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) return s;
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    /** JMH over the passed cells; true when a cell that should have been measured was not. */
    static boolean measure(Args a, List<String[]> passed) throws Exception {
        if (passed.isEmpty()) {
            System.err.println("thaw-jmh: no cell passed the gate; nothing measured");
            return true;
        }
        // (codec, op) → its fixtures, in the order asked; then groups of pairs with the same fixtures.
        Map<String, List<String>> fixturesOf = new LinkedHashMap<>();
        for (String[] c : passed) fixturesOf.computeIfAbsent(benchmark(c[0], c[2]), k -> new ArrayList<>()).add(c[1]);
        Map<List<String>, List<String>> groups = new LinkedHashMap<>();
        fixturesOf.forEach((bench, fixtures) -> groups.computeIfAbsent(fixtures, k -> new ArrayList<>()).add(bench));

        CommandLineOptions jmh = new CommandLineOptions(a.jmh.toArray(new String[0]));
        if (jmh.getResult().hasValue() || jmh.getResultFormat().hasValue()) {
            throw new UsageException("give -rf and -rff before `--`: thaw writes one file for all of its JMH runs");
        }
        if (!jmh.getIncludes().isEmpty()) {
            throw new UsageException("JMH's benchmark regex is thaw's: choose with --libs, --ops and --fixtures");
        }
        List<RunResult> results = new ArrayList<>();
        for (String mode : a.modes) {
            for (Map.Entry<List<String>, List<String>> g : groups.entrySet()) {
                StringBuilder regex = new StringBuilder("^(");
                for (int i = 0; i < g.getValue().size(); i++) {
                    regex.append(i == 0 ? "" : "|").append(g.getValue().get(i).replace(".", "\\."));
                }
                regex.append(")$");
                ChainedOptionsBuilder o = new OptionsBuilder().parent(jmh)
                    .include(regex.toString())
                    .param("fixture", g.getKey().toArray(new String[0]))
                    .mode(Mode.deepValueOf(mode))
                    .timeUnit(mode.equals("thrpt") ? TimeUnit.SECONDS : TimeUnit.NANOSECONDS)
                    .jvmArgsPrepend("-D" + Flags.DOCS + "=" + a.docs.toAbsolutePath(), "-D" + Flags.GATED + "=true");
                if (a.threads != null) o.threads(a.threads);
                if (a.quick) {
                    if (!jmh.getForkCount().hasValue()) o.forks(Flags.QUICK_FORKS);
                    if (!jmh.getWarmupIterations().hasValue()) o.warmupIterations(Flags.QUICK_WARMUP_ITERATIONS);
                    if (!jmh.getWarmupTime().hasValue()) o.warmupTime(TimeValue.seconds(Flags.QUICK_WARMUP_SECONDS));
                    if (!jmh.getMeasurementIterations().hasValue()) o.measurementIterations(Flags.QUICK_ITERATIONS);
                    if (!jmh.getMeasurementTime().hasValue()) o.measurementTime(TimeValue.seconds(Flags.QUICK_ITERATION_SECONDS));
                }
                System.out.println("# thaw: " + mode + " of " + String.join(", ", g.getValue()) + " on "
                    + String.join(", ", g.getKey()));
                results.addAll(new Runner(o.build()).run());
            }
        }

        // What should have been measured and was not (JMH printed why above).
        Set<String> got = new LinkedHashSet<>();
        for (RunResult r : results) {
            got.add(r.getParams().getBenchmark() + " " + r.getParams().getParam("fixture") + " " + r.getParams().getMode().shortLabel());
        }
        List<String> missing = new ArrayList<>();
        for (String mode : a.modes) {
            fixturesOf.forEach((bench, fixtures) -> {
                for (String f : fixtures) {
                    String key = bench + " " + f + " " + mode;
                    if (!got.contains(key)) missing.add(key);
                }
            });
        }

        if (a.resultFile != null) {
            ResultFormatType type = a.resultFormat == null ? ResultFormatType.JSON
                : ResultFormatType.valueOf(a.resultFormat.toUpperCase(Locale.ROOT));
            Path file = Paths.get(a.resultFile).toAbsolutePath();
            if (file.getParent() != null) Files.createDirectories(file.getParent());
            ResultFormatFactory.getInstance(type, file.toString()).writeOut(results);
            System.out.println("# thaw: " + results.size() + " results written to " + file);
        }
        summary(results, System.out);
        for (String m : missing) System.err.println("thaw-jmh: not measured (JMH failed it; see above): " + m);
        return !missing.isEmpty();
    }

    /** thaw.jmh.<Codec>Bench.<op> for a codec id and an op. */
    static String benchmark(String codec, String op) {
        String cls = Codecs.BENCHES.get(codec);
        if (cls == null) throw new IllegalArgumentException("unknown codec " + codec);
        return cls + "." + op;
    }

    /** Every result as ops/s and ns/op with JMH's 99.9% error, one line per cell and mode. */
    static void summary(Collection<RunResult> results, PrintStream out) {
        out.println();
        out.println("# thaw summary (score ± JMH's 99.9% error; both units from each mode's own score)");
        out.printf(Locale.ROOT, "%-9s %-15s %-4s %-6s %16s %22s%n", "codec", "fixture", "op", "mode", "ops/s", "ns/op");
        Map<String, String> codecOf = new LinkedHashMap<>();
        Codecs.BENCHES.forEach((id, cls) -> codecOf.put(cls, id));
        for (RunResult r : results) {
            String b = r.getParams().getBenchmark();
            String cls = b.substring(0, b.lastIndexOf('.'));
            String op = b.substring(b.lastIndexOf('.') + 1);
            double score = r.getPrimaryResult().getScore();
            double err = r.getPrimaryResult().getScoreError();
            String unit = r.getPrimaryResult().getScoreUnit();
            double perSecond;
            double errPerSecond;
            double ns;
            double errNs;
            double scale = unitSeconds(unit);
            if (unit.startsWith("ops/")) {
                perSecond = score / scale;
                errPerSecond = err / scale;
                ns = 1e9 / perSecond;
                errNs = Double.isNaN(err) ? Double.NaN : ns * errPerSecond / perSecond;
            } else {
                ns = score * scale * 1e9;
                errNs = err * scale * 1e9;
                perSecond = 1e9 / ns;
                errPerSecond = Double.isNaN(err) ? Double.NaN : perSecond * errNs / ns;
            }
            out.printf(Locale.ROOT, "%-9s %-15s %-4s %-6s %16s %22s%n", codecOf.getOrDefault(cls, cls),
                r.getParams().getParam("fixture"), op, r.getParams().getMode().shortLabel(),
                String.format(Locale.ROOT, "%,.0f ± %,.0f", perSecond, errPerSecond),
                String.format(Locale.ROOT, "%,.0f ± %,.0f", ns, errNs));
        }
    }

    /** Seconds in the time unit of a JMH score unit (`ops/s`, `us/op`, ...). */
    static double unitSeconds(String unit) {
        String u = unit.startsWith("ops/") ? unit.substring(4) : unit.substring(0, unit.indexOf('/'));
        switch (u) {
            case "s": return 1;
            case "ms": return 1e-3;
            case "us": return 1e-6;
            case "ns": return 1e-9;
            case "min": return 60;
            default: throw new IllegalArgumentException("unknown JMH unit " + unit);
        }
    }
}
