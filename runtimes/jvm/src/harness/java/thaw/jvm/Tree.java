// The neutral tree as text (docs/child-protocol.md), read by hand with no JSON library: one value
// per line, in pre-order (`{ N`, `k HEX`, `[ N`, `s HEX`, `i N`, `f X`, `t`, `F`, `n`). A typed
// child builds its model from it by hand (`get("users").items()`, `str()`, `i64()`, …).

package thaw.jvm;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class Tree {
    /** `{` object, `[` array, `s` string, `i` whole number, `f` double, `t`/`F` bool, `n` null. */
    public final char kind;
    /** A string's text, or a number's text as the tree wrote it. */
    private final String text;
    private final List<Tree> items;
    private final Map<String, Tree> members;

    private Tree(char kind, String text, List<Tree> items, Map<String, Tree> members) {
        this.kind = kind;
        this.text = text;
        this.items = items;
        this.members = members;
    }

    /** The tree of a `<fixture>.tree.txt`. */
    public static Tree parse(byte[] data) {
        String[] lines = new String(data, StandardCharsets.UTF_8).split("\n", -1);
        int[] pos = {0};
        return value(lines, pos);
    }

    /** An object's member; an error when it has none of that name. */
    public Tree get(String key) {
        Tree t = members == null ? null : members.get(key);
        if (t == null) throw new IllegalArgumentException("the tree has no member `" + key + "`");
        return t;
    }

    public List<Tree> items() {
        if (items == null) throw new IllegalArgumentException("not an array: " + kind);
        return items;
    }

    public Map<String, Tree> members() {
        if (members == null) throw new IllegalArgumentException("not an object: " + kind);
        return Collections.unmodifiableMap(members);
    }

    public String str() {
        expect('s');
        return text;
    }

    public long i64() {
        expect('i');
        return Long.parseLong(text);
    }

    public int i32() {
        return Math.toIntExact(i64());
    }

    /** A double (a whole number reads as one too). */
    public double f64() {
        if (kind != 'i') expect('f');
        return Double.parseDouble(text);
    }

    /**
     * A number's text as the tree wrote it: the shortest text that reads back to the double, so
     * an exact decimal that went through a double (Clients' balance) is this text exactly.
     */
    public String numberText() {
        if (kind != 'i') expect('f');
        return text;
    }

    public boolean bool() {
        if (kind == 't') return true;
        if (kind == 'F') return false;
        throw new IllegalArgumentException("not a bool: " + kind);
    }

    public boolean isNull() {
        return kind == 'n';
    }

    private void expect(char k) {
        if (kind != k) throw new IllegalArgumentException("expected `" + k + "`, got `" + kind + "`");
    }

    private static Tree value(String[] lines, int[] pos) {
        String line = lines[pos[0]++];
        int space = line.indexOf(' ');
        String tag = space < 0 ? line : line.substring(0, space);
        String rest = space < 0 ? "" : line.substring(space + 1);
        switch (tag) {
            case "{": {
                int n = Integer.parseInt(rest);
                Map<String, Tree> obj = new LinkedHashMap<>(n * 2);
                for (int i = 0; i < n; i++) {
                    String k = lines[pos[0]++];
                    if (!k.startsWith("k ")) throw new IllegalArgumentException("bad tree line `" + k + "`");
                    String key = hex(k.substring(2));
                    obj.put(key, value(lines, pos));
                }
                return new Tree('{', null, null, obj);
            }
            case "[": {
                int n = Integer.parseInt(rest);
                List<Tree> arr = new ArrayList<>(n);
                for (int i = 0; i < n; i++) arr.add(value(lines, pos));
                return new Tree('[', null, arr, null);
            }
            case "s": return new Tree('s', hex(rest), null, null);
            case "i": return new Tree('i', rest, null, null);
            case "f": return new Tree('f', rest, null, null);
            case "t": return new Tree('t', null, null, null);
            case "F": return new Tree('F', null, null, null);
            case "n": return new Tree('n', null, null, null);
            default: throw new IllegalArgumentException("bad tree line `" + line + "`");
        }
    }

    private static String hex(String h) {
        byte[] b = new byte[h.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) ((Character.digit(h.charAt(2 * i), 16) << 4)
                | Character.digit(h.charAt(2 * i + 1), 16));
        }
        return new String(b, StandardCharsets.UTF_8);
    }

    /** The model of a tree: its root object's first key (`users`, `clients`), or null. */
    public static String treeModel(byte[] data) {
        int first = indexOf(data, (byte) '\n', 0);
        if (first < 0 || data[0] != '{') return null;
        int second = indexOf(data, (byte) '\n', first + 1);
        if (second < 0) second = data.length;
        String k = new String(data, first + 1, second - first - 1, StandardCharsets.US_ASCII);
        return k.startsWith("k ") ? hex(k.substring(2)) : null;
    }

    /** The model of a JSON document: its root object's first key, read by hand, or null. */
    public static String documentModel(byte[] data) {
        int i = skipSpace(data, 0);
        if (i >= data.length || data[i] != '{') return null;
        i = skipSpace(data, i + 1);
        if (i >= data.length || data[i] != '"') return null;
        int end = indexOf(data, (byte) '"', i + 1);
        if (end < 0) return null;
        return new String(data, i + 1, end - i - 1, StandardCharsets.UTF_8);
    }

    private static int skipSpace(byte[] data, int i) {
        while (i < data.length && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t')) i++;
        return i;
    }

    private static int indexOf(byte[] data, byte b, int from) {
        for (int i = from; i < data.length; i++) if (data[i] == b) return i;
        return -1;
    }
}
