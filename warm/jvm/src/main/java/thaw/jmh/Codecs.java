// The four JVM codecs of the cold track as their codec-*.toml files describe them (copied into
// the jar from runtimes/jvm at build time): the id, the models the cold child expresses and,
// for the others, why not. The warm benches read support from here, so the cold and warm tracks
// say the same thing, from one place. Only the lines this needs are read: `key = "text"` and
// `models = ["a", "b"]`.

package thaw.jmh;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import thaw.jvm.Harness;

final class Codecs {
    private Codecs() {}

    /**
     * One codec: its cold id, its library, the models its cold child expresses, why not the
     * others, and the models the warm track measures with the seed's adapters (model → what they
     * are: SEED_ADAPTERS).
     */
    record Codec(String id, String library, List<String> models, String why, String benchClass,
                 Map<String, String> adapted) {
        boolean supports(String model) {
            return models.contains(model) || adapted.containsKey(model);
        }

        /** What the seed's adapters are for `model`, or null when the cold child's library side measures it. */
        String adapters(String model) {
            return models.contains(model) ? null : adapted.get(model);
        }

        /** The reason a model is not supported, as the codec's toml says it. */
        String unsupported(String model) {
            return id + " does not express " + model + " (its cold child expresses " + String.join(", ", models)
                + ")" + (why == null ? "" : ": " + why);
        }

        /**
         * A new library side for `model`: the cold child's, as the child makes it, or for a model
         * measured with the seed's adapters, that library side (its `init` is the caller's).
         */
        Harness.Library newLibrary(String model) {
            if (adapters(model) != null) {
                switch (id) {
                    case "kotlinx": return new KotlinxSeedClients();
                    case "fory": return new ForySeedClients();
                    default: throw new IllegalArgumentException("no library with the seed's adapters for codec `" + id + "`");
                }
            }
            return child().library();
        }

        /** The cold child's model and library sides (own mode), as the child's main makes them. */
        Harness.Child child() {
            switch (id) {
                case "gson": return new thaw.jvm.gson.GsonChild();
                case "jackson": return new thaw.jvm.jackson.JacksonChild();
                case "fory": return new thaw.jvm.fory.ForyChild();
                case "kotlinx": return new thaw.jvm.kotlinx.KotlinxChild();
                default: throw new IllegalArgumentException("no library for codec `" + id + "`");
            }
        }
    }

    /**
     * Codec id → the JMH bench class whose `de` and `ser` measure it. analysis/src/inputs/jmh.rs
     * holds the same table (its tests say so); a new codec is a line in both.
     */
    static final Map<String, String> BENCHES = new LinkedHashMap<>();
    static {
        BENCHES.put("kotlinx", KotlinxBench.class.getName());
        BENCHES.put("gson", GsonBench.class.getName());
        BENCHES.put("jackson", JacksonBench.class.getName());
        BENCHES.put("fory", ForyBench.class.getName());
    }

    /**
     * The cells the warm track measures with the seed's adapters, where the cold child does not
     * express the model: codec id → model → what the adapters are (the label the gate's output
     * and gate.csv carry). The seed's warmed table has Clients rows for kotlinx and Fory; its
     * Kotlin port of java-json-benchmark's Clients (github.com/chaokunyang/kotlin-json-benchmarks)
     * gives kotlinx a KSerializer per JDK type, and Fory its own codecs. Each cell is gated like
     * every other.
     */
    static final Map<String, Map<String, String>> SEED_ADAPTERS = Map.of(
        "kotlinx", Map.of("clients", "with the seed's adapters: KSerializers for UUID, LocalDate and OffsetDateTime"
            + " (the JDK's text) and BigDecimal (an unquoted number), thaw.jmh.KotlinxSeedClients"),
        "fory", Map.of("clients", "with the seed's adapters: Fory's own codecs, and for OffsetDateTime the seed's"
            + " kotlinx adapter (the JDK's text) in place of Fory's, which drops the fraction's trailing zeros,"
            + " thaw.jmh.ForySeedClients"));

    private static final Map<String, Codec> CACHE = new LinkedHashMap<>();

    /** The codec `id`, read from the jar's copy of codec-<id>.toml. */
    static synchronized Codec get(String id) {
        Codec c = CACHE.get(id);
        if (c != null) return c;
        String bench = BENCHES.get(id);
        if (bench == null) {
            throw new IllegalArgumentException("unknown codec `" + id + "`: give one of " + String.join(", ", BENCHES.keySet()));
        }
        String resource = "/thaw/jmh/codecs/codec-" + id + ".toml";
        String text;
        try (InputStream in = Codecs.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException(resource + " is not in the jar (rebuild it: scripts/warm-jvm.sh)");
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource + ": " + e, e);
        }
        Map<String, String> keys = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            line = line.strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            int eq = line.indexOf('=');
            if (eq < 0) continue;
            keys.putIfAbsent(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
        }
        String tomlId = string(keys.get("id"), resource, "id");
        if (!tomlId.equals(id)) throw new IllegalStateException(resource + ": id is `" + tomlId + "`, not `" + id + "`");
        String models = keys.get("models");
        if (models == null || !models.startsWith("[") || !models.endsWith("]")) {
            throw new IllegalStateException(resource + ": no `models = [\"users\", ...]` line");
        }
        List<String> list = new ArrayList<>();
        for (String m : models.substring(1, models.length() - 1).split(",")) {
            m = m.strip();
            if (!m.isEmpty()) list.add(string(m, resource, "models"));
        }
        String why = keys.containsKey("why") ? string(keys.get("why"), resource, "why") : null;
        c = new Codec(id, string(keys.get("library"), resource, "library"), List.copyOf(list), why, bench,
            SEED_ADAPTERS.getOrDefault(id, Map.of()));
        CACHE.put(id, c);
        return c;
    }

    /** A TOML basic string's text (the codec files escape nothing but `\"` and `\\`). */
    private static String string(String v, String resource, String key) {
        if (v == null || v.length() < 2 || !v.startsWith("\"") || !v.endsWith("\"")) {
            throw new IllegalStateException(resource + ": `" + key + "` is not a quoted string");
        }
        return v.substring(1, v.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\");
    }
}
