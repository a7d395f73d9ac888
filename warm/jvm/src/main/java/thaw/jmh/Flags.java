// The JVM flags and the seed's settings every bench fork starts with, in one place: the
// annotations of Bench and the options thaw.jmh.Main builds both read them.

package thaw.jmh;

final class Flags {
    private Flags() {}

    /**
     * The heap of a bench fork: fixed at 1 GiB (-Xms = -Xmx, so it never resizes while
     * measured). The cold children run in -Xms64m -Xmx64m, enough for one short life; a warm
     * fork of a 1000 KB cell makes hundreds of values a second (each 1000 KB Users value is a few
     * MB of objects, each `ser` output 1-2 MB), so in 64 MB it would collect every few
     * operations and the figure would be the collector's. 1 GiB keeps collections a small,
     * steady part of each operation, for every fixture alike, and fits beside the other fork
     * of a 2-core machine with room to spare (README.md).
     */
    static final String XMS = "-Xms1g";
    static final String XMX = "-Xmx1g";
    /**
     * G1, the collector a long-lived JVM gets by default on a server-class machine, named so
     * that it does not depend on the machine's size (below 2 CPUs or 1792 MB the JVM picks
     * Serial). The cold children use -XX:+UseSerialGC: one short life, no collector threads.
     */
    static final String GC = "-XX:+UseG1GC";

    /** The seed's (java-json-benchmark's warmed run): 2 forks, 1 × 5 s warm-up, 3 × 1 s. */
    static final int FORKS = 2;
    static final int WARMUP_ITERATIONS = 1;
    static final int WARMUP_SECONDS = 5;
    static final int ITERATIONS = 3;
    static final int ITERATION_SECONDS = 1;

    /** The quick mode: 1 fork, 1 × 1 s warm-up, 2 × 1 s: a first look. */
    static final int QUICK_FORKS = 1;
    static final int QUICK_WARMUP_ITERATIONS = 1;
    static final int QUICK_WARMUP_SECONDS = 1;
    static final int QUICK_ITERATIONS = 2;
    static final int QUICK_ITERATION_SECONDS = 1;

    /** The system property naming the documents' folder (`<fixture>.json` files). */
    static final String DOCS = "thaw.docs";
    /** Set by Main in its forks when its gate already passed the cell. */
    static final String GATED = "thaw.gated";
}
