// For investigations only (FORY-NOTES.md), never in a timed sample: with -Dthaw.diagnose=true a
// child prints on stderr, right after its `checked` stamp, every live thread (name, daemon, state,
// top frames), then when `main` returns and when the shutdown hooks start. Each line carries
// System.nanoTime (the protocol's clock) and the wall clock in epoch microseconds (strace -ttt's).
// With -Dthaw.diagnose.sleepms=N as well, `main` sleeps N ms after the line before it returns (to
// see whether a library's background work, finished by then, still delays the exit).

package thaw.jvm;

import java.time.Instant;
import java.util.Map;

final class Diagnostics {
    private Diagnostics() {}

    /**
     * -Dthaw.diagnose.model=true: called right after the `model` stamp, so that this class's
     * loading marks the stamp in -Xlog:class+load (what loaded before it is the model phase's).
     */
    static void modelStamped(long modelNs) {
        System.err.println("diag: model " + modelNs);
    }

    private static String stamp(long checkedNs) {
        long now = System.nanoTime();
        Instant wall = Instant.now();
        return "mono_ns=" + now + " epoch_us=" + (wall.getEpochSecond() * 1_000_000L + wall.getNano() / 1000)
            + " after_checked_ms=" + String.format("%.3f", (now - checkedNs) / 1e6);
    }

    static void afterChecked(long checkedNs) {
        StringBuilder out = new StringBuilder();
        out.append("diag: checked ").append(stamp(checkedNs)).append('\n');
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            Thread t = e.getKey();
            out.append("diag: thread \"").append(t.getName()).append("\" daemon=").append(t.isDaemon())
                .append(" state=").append(t.getState()).append('\n');
            StackTraceElement[] frames = e.getValue();
            for (int i = 0; i < Math.min(frames.length, 8); i++) {
                out.append("diag:     at ").append(frames[i]).append('\n');
            }
        }
        System.err.print(out);
        System.err.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.err.println("diag: shutdown hooks start " + stamp(checkedNs));
        }, "thaw-diagnose-hook"));
    }

    static void mainReturns(long checkedNs) {
        long sleep = Long.getLong("thaw.diagnose.sleepms", 0L);
        if (sleep > 0) {
            try {
                Thread.sleep(sleep);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        System.err.println("diag: main returns " + stamp(checkedNs));
    }
}
