// The curve mode of the JVM harness (`--window W`, docs/child-protocol.md; schema::curve declares
// it): the batch of N operations in one loop that reads System.nanoTime (CLOCK_MONOTONIC) after
// operation i when i is in the schedule (a checkpoint m·10^e with m one of 1, 2, 3, 5, 7, 15, a
// multiple of W, or N) into a long[] sized to the schedule before the clock, so a read allocates
// nothing; the read after op 1 is the `first` stamp, the one after op N `done`. The curve line it
// prints before the protocol line, and the price of a read (1,000 back-to-back reads after
// `checked`). Harness decides when it runs; without `--window` none of it runs nor loads.
//
// `de` cannot hold N copies nor N values: before each call the one working copy (a byte[] the
// harness made with data.clone() before the clock, the kind of copy it makes per call outside
// curve mode) is refreshed from the document with System.arraycopy (no allocation), and each
// decoded value becomes garbage when the next replaces it; the last is returned for the check.
// `ser` calls the library on its one value, as outside curve mode.

package thaw.jvm;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

final class Curve {
    /** Where the clock reads go: 1,000 reads' values, so the JIT cannot drop them. */
    static long sink;

    private final long[] ops;
    private final long[] ns;

    Curve(int batch, int window) {
        ops = schedule(batch, window);
        ns = new long[ops.length];
    }

    /**
     * Every operation count after which the clock is read, ascending (what
     * schema::curve::schedule gives): each checkpoint up to `batch`, each multiple of
     * `window`, and `batch`.
     */
    static long[] schedule(int batch, int window) {
        int windows = batch / window;
        long[] all = new long[windows + 1 + 6 * 8];
        int n = 0;
        for (int k = 1; k <= windows; k++) all[n++] = (long) k * window;
        all[n++] = batch;
        for (long decade = 1; decade <= batch; decade *= 10) {
            for (long m : new long[] {1, 2, 3, 5, 7, 15}) {
                if (m * decade <= batch) all[n++] = m * decade;
            }
        }
        Arrays.sort(all, 0, n);
        int kept = 0;
        for (int i = 0; i < n; i++) {
            if (kept == 0 || all[i] != all[kept - 1]) all[kept++] = all[i];
        }
        return Arrays.copyOf(all, kept);
    }

    /** The batch, its clock read into ns[k] after operation ops[k]; the last call's result. */
    Object run(Harness.Library lib, boolean de, byte[] data, byte[] work, Object value)
            throws Exception {
        long[] ops = this.ops;
        long[] ns = this.ns;
        int last = ops.length - 1;
        int batch = (int) ops[last];
        int k = 0;
        long at = ops[0];
        Object out = null;
        if (de) {
            for (int i = 1; i <= batch; i++) {
                System.arraycopy(data, 0, work, 0, data.length); // the working copy, refreshed
                out = lib.de(work);
                if (i == at) {
                    ns[k] = System.nanoTime();
                    if (k < last) at = ops[++k];
                }
            }
        } else {
            for (int i = 1; i <= batch; i++) {
                out = lib.ser(value);
                if (i == at) {
                    ns[k] = System.nanoTime();
                    if (k < last) at = ops[++k];
                }
            }
        }
        return out;
    }

    /** The read after the first operation. */
    long first() {
        return ns[0];
    }

    /** The read after the last operation. */
    long done() {
        return ns[ns.length - 1];
    }

    /** The time of 1,000 back-to-back clock reads, ns. */
    static long clock1000() {
        long x = 0;
        long start = System.nanoTime();
        for (int i = 0; i < 1000; i++) x ^= System.nanoTime();
        long end = System.nanoTime();
        sink = x;
        return end - start;
    }

    /** The curve line, `\n` included: {"ops":[…],"ns":[…],"clock_1000_ns":X}. */
    byte[] line(long clock1000Ns) {
        StringBuilder b = new StringBuilder(64 + 24 * ops.length).append("{\"ops\":[");
        for (int i = 0; i < ops.length; i++) {
            if (i > 0) b.append(',');
            b.append(ops[i]);
        }
        b.append("],\"ns\":[");
        for (int i = 0; i < ns.length; i++) {
            if (i > 0) b.append(',');
            b.append(ns[i]);
        }
        b.append("],\"clock_1000_ns\":").append(clock1000Ns).append("}\n");
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }
}
