// thaw's JVM child harness: the cold child protocol (docs/child-protocol.md) around a library,
// so that a library's child class holds only what is the library's. A child's main stamps `main`
// first (System.nanoTime reads CLOCK_MONOTONIC on Linux), then calls Harness.run. Nothing here
// touches a JSON library: a `ser` input (the neutral tree of docs/child-protocol.md) is read by
// hand, and a typed library builds its model from it by hand (Users.fromTree).

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class Harness {
    static final int FAILURE_EXIT = 2;

    /** What a library's child provides. */
    public interface Library {
        /** The library's state (its classes load here). */
        void init() throws Exception;
        Object de(byte[] data) throws Exception;
        /** The value's encoding: byte[] or String, the library's natural API. */
        Object ser(Object value) throws Exception;
        /** The decoded value written back by the same library (after the clock). */
        byte[] writeBack(Object value) throws Exception;
        String version();
        /** The value a `ser` child writes, built by hand from the neutral tree. */
        default Object fromTree(Object tree) { return tree; }
        default boolean baseline() { return false; }
    }

    static void fail(String message) {
        System.err.println("child: " + message);
        System.exit(FAILURE_EXIT);
    }

    public static void run(long mainNs, String[] argv, Library lib) throws Exception {
        if (argv.length == 1 && argv[0].equals("--version")) {
            System.out.println(lib.version());
            return;
        }
        String op = null, input = null, drops = "end", checkFile = null;
        int batch = 0;
        for (int i = 0; i < argv.length; i += 2) {
            if (i + 1 >= argv.length) fail(argv[i] + " needs a value");
            String v = argv[i + 1];
            switch (argv[i]) {
                case "--op": op = v; break;
                case "--batch": batch = Integer.parseInt(v); break;
                case "--input": input = v; break;
                case "--drops": drops = v; break;
                case "--check-file": checkFile = v; break;
                default: fail("unknown argument `" + argv[i] + "`");
            }
        }
        if (op == null || input == null) fail("missing --op or --input");
        if (batch < 1 || batch > 1_000_000) fail("--batch " + batch + ": give 1 to 1000000");

        byte[] data = Files.readAllBytes(Paths.get(input));
        byte[][] copies = null;
        Object value = null;
        if (op.equals("de")) {
            copies = new byte[batch][];
            for (int i = 0; i < batch; i++) copies[i] = data.clone();
        } else if (op.equals("ser")) {
            value = lib.baseline() ? data : lib.fromTree(readTree(data));
        } else {
            fail("--op " + op + ": give ser or de");
        }
        long fixtureNs = System.nanoTime();

        lib.init();
        long initNs = System.nanoTime();

        List<Object> keep = new ArrayList<>();
        long firstNs = 0;
        Object out = null;
        for (int i = 0; i < batch; i++) {
            out = op.equals("de") ? lib.de(copies[i]) : lib.ser(value);
            if (op.equals("de") && (drops.equals("end") || i == batch - 1)) keep.add(out);
            if (i == 0) firstNs = System.nanoTime();
        }
        if (op.equals("ser")) keep.add(out);
        long doneNs = System.nanoTime();

        Object last = keep.get(keep.size() - 1);
        Object produced = op.equals("de") ? lib.writeBack(last) : last;
        byte[] bytes = produced instanceof String
            ? ((String) produced).getBytes(StandardCharsets.UTF_8)
            : (byte[]) produced;
        long size = op.equals("de") ? data.length : bytes.length;
        long check = bytes.length;
        long checkedNs = System.nanoTime();
        if (checkFile != null) Files.write(Paths.get(checkFile), bytes);
        long[] memory = memoryKib();
        String line = String.format(
            "{\"main\":%d,\"fixture\":%d,\"init\":%d,\"first\":%d,\"done\":%d,\"checked\":%d,"
                + "\"checksum\":\"%016x\",\"bytes\":%d,\"hwm_kib\":%d,\"rss_kib\":%d}\n",
            mainNs, fixtureNs, initNs, firstNs, doneNs, checkedNs, check, size, memory[0], memory[1]);
        OutputStream stdout = System.out;
        stdout.write(line.getBytes(StandardCharsets.UTF_8));
        stdout.flush();
    }

    static long[] memoryKib() throws IOException {
        long hwm = 0, rss = 0;
        try (BufferedReader r = Files.newBufferedReader(Paths.get("/proc/self/status"))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("VmHWM:")) hwm = Long.parseLong(line.split("\\s+")[1]);
                if (line.startsWith("VmRSS:")) rss = Long.parseLong(line.split("\\s+")[1]);
            }
        }
        return new long[] {hwm, rss};
    }

    /** The neutral tree (one value per line, pre-order) as maps, lists and scalars. */
    static Object readTree(byte[] data) {
        String[] lines = new String(data, StandardCharsets.UTF_8).split("\n", -1);
        int[] pos = {0};
        return value(lines, pos);
    }

    private static Object value(String[] lines, int[] pos) {
        String line = lines[pos[0]++];
        int space = line.indexOf(' ');
        String tag = space < 0 ? line : line.substring(0, space);
        String rest = space < 0 ? "" : line.substring(space + 1);
        switch (tag) {
            case "{": {
                Map<String, Object> obj = new LinkedHashMap<>();
                for (int n = Integer.parseInt(rest); n > 0; n--) {
                    String key = hex(lines[pos[0]++].substring(2));
                    obj.put(key, value(lines, pos));
                }
                return obj;
            }
            case "[": {
                List<Object> arr = new ArrayList<>();
                for (int n = Integer.parseInt(rest); n > 0; n--) arr.add(value(lines, pos));
                return arr;
            }
            case "s": return hex(rest);
            case "i": return Long.parseLong(rest);
            case "f": return Double.parseDouble(rest);
            case "t": return Boolean.TRUE;
            case "F": return Boolean.FALSE;
            case "n": return null;
            default: fail("bad tree line `" + line + "`"); return null;
        }
    }

    private static String hex(String h) {
        byte[] b = new byte[h.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        }
        return new String(b, StandardCharsets.UTF_8);
    }
}
