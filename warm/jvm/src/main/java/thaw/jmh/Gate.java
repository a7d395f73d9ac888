// The correctness gate of the warm JVM track, before anything is measured: a library's `de` of
// the document, written back by its own `ser`, must read back (with Jackson databind's tree as
// the neutral reader) equal to the document's tree. Whole numbers compare exactly; any other
// number compares as a double, equal or within 3 ULP; strings, booleans and nulls exactly;
// objects by their members (order aside), arrays item by item. The `ser` benches start from that
// same decoded value, so one round trip vouches for both ops; the first difference is named by
// its path ($.users[3].latitude).

package thaw.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import thaw.jvm.Harness;

final class Gate {
    private Gate() {}

    /** How far apart (in units in the last place) two doubles may be and still be equal. */
    static final long MAX_ULPS = 3;

    private static final ObjectMapper READER = new ObjectMapper();

    /** The bytes of a `ser` output: a byte[] as it is, a String as UTF-8. */
    static byte[] bytes(Object out) {
        if (out instanceof byte[] b) return b;
        if (out instanceof String s) return s.getBytes(StandardCharsets.UTF_8);
        throw new IllegalStateException("ser returned a " + (out == null ? "null" : out.getClass().getName())
            + ", not a byte[] or a String");
    }

    /**
     * null when `lib` (already initialised for the document's model) round-trips the document;
     * otherwise what differs, or what failed, in words.
     */
    static String roundTrip(Harness.Library lib, Documents.Document doc) {
        Object value;
        try {
            value = lib.de(doc.bytes().clone());
        } catch (Throwable e) {
            return "de failed: " + oneLine(e);
        }
        byte[] written;
        try {
            written = bytes(lib.ser(value));
        } catch (Throwable e) {
            return "ser of the decoded value failed: " + oneLine(e);
        }
        JsonNode expected;
        JsonNode actual;
        try {
            expected = READER.readTree(doc.bytes());
        } catch (Throwable e) {
            return "the document is not JSON Jackson reads: " + oneLine(e);
        }
        try {
            actual = READER.readTree(written);
        } catch (Throwable e) {
            return "the written document is not JSON Jackson reads: " + oneLine(e);
        }
        String diff = firstDifference(expected, actual, "$");
        return diff == null ? null : "the value de read, written by ser, differs from the document " + diff;
    }

    /** A failure's message on one line, at most 300 characters (exceptions quote their input). */
    static String oneLine(Throwable e) {
        String s = e.toString().replaceAll("\\s*\n\\s*", " | ");
        return s.length() > 300 ? s.substring(0, 297) + "..." : s;
    }

    /** The first place where `actual` differs from `expected`, or null. */
    static String firstDifference(JsonNode expected, JsonNode actual, String path) {
        if (expected == null || actual == null || expected.isMissingNode() || actual.isMissingNode()) {
            return expected == actual ? null : "at " + path + ": " + show(expected) + " in the document, " + show(actual) + " written";
        }
        if (expected.isNumber() && actual.isNumber()) {
            if (expected.isIntegralNumber() && actual.isIntegralNumber()) {
                return expected.bigIntegerValue().equals(actual.bigIntegerValue()) ? null
                    : "at " + path + ": " + expected + " in the document, " + actual + " written";
            }
            double a = expected.doubleValue();
            double b = actual.doubleValue();
            long ulps = ulps(a, b);
            return ulps <= MAX_ULPS ? null
                : "at " + path + ": " + expected + " in the document, " + actual + " written ("
                    + (ulps == Long.MAX_VALUE ? "not close" : ulps + " ULP apart") + ", at most " + MAX_ULPS + ")";
        }
        if (expected.getNodeType() != actual.getNodeType()) {
            return "at " + path + ": " + kind(expected) + " " + show(expected) + " in the document, " + kind(actual) + " "
                + show(actual) + " written";
        }
        if (expected.isObject()) {
            for (Map.Entry<String, JsonNode> e : expected.properties()) {
                JsonNode other = actual.get(e.getKey());
                String sub = member(path, e.getKey());
                if (other == null) return "at " + sub + ": in the document, not written";
                String d = firstDifference(e.getValue(), other, sub);
                if (d != null) return d;
            }
            for (Map.Entry<String, JsonNode> e : actual.properties()) {
                if (!expected.has(e.getKey())) return "at " + member(path, e.getKey()) + ": written, not in the document";
            }
            return null;
        }
        if (expected.isArray()) {
            int n = Math.min(expected.size(), actual.size());
            for (int i = 0; i < n; i++) {
                String d = firstDifference(expected.get(i), actual.get(i), path + "[" + i + "]");
                if (d != null) return d;
            }
            return expected.size() == actual.size() ? null
                : "at " + path + ": " + expected.size() + " items in the document, " + actual.size() + " written";
        }
        return expected.equals(actual) ? null : "at " + path + ": " + show(expected) + " in the document, " + show(actual) + " written";
    }

    /** How many doubles lie between a and b (0 when equal; Long.MAX_VALUE when not finite or far). */
    static long ulps(double a, double b) {
        if (a == b) return 0;
        if (Double.isNaN(a) || Double.isNaN(b) || Double.isInfinite(a) || Double.isInfinite(b)) return Long.MAX_VALUE;
        long x = ordered(a);
        long y = ordered(b);
        long d = x - y;
        // Opposite signs far apart overflow: not close either way.
        if (((x ^ y) & (x ^ d)) < 0) return Long.MAX_VALUE;
        return Math.abs(d);
    }

    /** The double's bits as a long that orders as the doubles do (-0.0 and 0.0 both 0). */
    private static long ordered(double v) {
        long bits = Double.doubleToLongBits(v);
        return bits < 0 ? Long.MIN_VALUE - bits : bits;
    }

    private static String member(String path, String key) {
        return key.matches("[A-Za-z_][A-Za-z0-9_]*") ? path + "." + key : path + "[" + quote(key) + "]";
    }

    private static String kind(JsonNode n) {
        return n.getNodeType().name().toLowerCase();
    }

    private static String show(JsonNode n) {
        if (n == null || n.isMissingNode()) return "nothing";
        String s = n.isContainerNode() ? (n.isArray() ? "[" + n.size() + " items]" : "{" + n.size() + " members}") : n.toString();
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }

    private static String quote(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
