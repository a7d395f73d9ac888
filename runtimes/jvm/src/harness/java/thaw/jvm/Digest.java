// The checksum of a JVM child, by hand: 64-bit FNV-1a (offset 0xcbf29ce484222325, prime
// 0x100000001b3), the Rust children's, of
//   - `ser`: the output's UTF-8 bytes (`fnv1a(byte[])`);
//   - `de`: a structural walk of the last decoded value, which each model writes by hand in a
//     fixed field order (no reflection, no library), feeding these bytes:
//       null 'n'    true 't'    false 'F'
//       whole number (int or long) 'i' + 8 bytes, little-endian
//       double 'f' + the 8 bytes of Double.doubleToLongBits, little-endian
//       string 's' + its length in UTF-16 units (4 bytes, little-endian) + its UTF-8 bytes
//       array '[' + its count (4 bytes) + each item;  object '{' + its field count + each value
//       and the models' own types from these (Clients): UUID 'u' + its two longs; decimal 'd' +
//       scale (4 bytes) + the unscaled value's decimal text as a string; date 'D' + year, month,
//       day (4 bytes each); date-time 'T' + the date's and the time's fields, the nanosecond and
//       the offset's seconds (4 bytes each); enum 'e' + its name as a string.
// Every value is tagged and every string and container carries its length, so two values with
// the same walk are the same value; the same model walked by any library gives the same digest.

package thaw.jvm;

public final class Digest {
    public static final long OFFSET = 0xcbf29ce484222325L;
    public static final long PRIME = 0x100000001b3L;

    private long h = OFFSET;

    public long value() {
        return h;
    }

    public Digest tag(char c) {
        h = (h ^ (c & 0xff)) * PRIME;
        return this;
    }

    /** 4 bytes, little-endian, untagged. */
    public Digest raw32(int v) {
        long x = h;
        for (int i = 0; i < 4; i++, v >>>= 8) x = (x ^ (v & 0xff)) * PRIME;
        h = x;
        return this;
    }

    /** 8 bytes, little-endian, untagged. */
    public Digest raw64(long v) {
        long x = h;
        for (int i = 0; i < 8; i++, v >>>= 8) x = (x ^ (v & 0xff)) * PRIME;
        h = x;
        return this;
    }

    public Digest nul() {
        return tag('n');
    }

    public Digest bool(boolean b) {
        return tag(b ? 't' : 'F');
    }

    public Digest i64(long v) {
        return tag('i').raw64(v);
    }

    public Digest f64(double v) {
        return tag('f').raw64(Double.doubleToLongBits(v));
    }

    public Digest array(int count) {
        return tag('[').raw32(count);
    }

    public Digest object(int fields) {
        return tag('{').raw32(fields);
    }

    /** A string (null walks as null): its UTF-16 length, then its UTF-8 bytes, made by hand. */
    public Digest str(String s) {
        if (s == null) return nul();
        int n = s.length();
        tag('s').raw32(n);
        long x = h;
        for (int i = 0; i < n; i++) {
            int c = s.charAt(i);
            if (c < 0x80) {
                x = (x ^ c) * PRIME;
            } else if (c < 0x800) {
                x = (x ^ (0xc0 | (c >> 6))) * PRIME;
                x = (x ^ (0x80 | (c & 0x3f))) * PRIME;
            } else if (Character.isHighSurrogate((char) c) && i + 1 < n
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint((char) c, s.charAt(++i));
                x = (x ^ (0xf0 | (cp >> 18))) * PRIME;
                x = (x ^ (0x80 | ((cp >> 12) & 0x3f))) * PRIME;
                x = (x ^ (0x80 | ((cp >> 6) & 0x3f))) * PRIME;
                x = (x ^ (0x80 | (cp & 0x3f))) * PRIME;
            } else {
                // The rest of the BMP; a lone surrogate as its own three bytes (WTF-8).
                x = (x ^ (0xe0 | (c >> 12))) * PRIME;
                x = (x ^ (0x80 | ((c >> 6) & 0x3f))) * PRIME;
                x = (x ^ (0x80 | (c & 0x3f))) * PRIME;
            }
        }
        h = x;
        return this;
    }

    /** FNV-1a of all of `bytes`. */
    public static long fnv1a(byte[] bytes) {
        long x = OFFSET;
        for (byte b : bytes) x = (x ^ (b & 0xff)) * PRIME;
        return x;
    }

    /** 16 lowercase hex digits. */
    public static String hex(long v) {
        String s = Long.toHexString(v);
        return "0000000000000000".substring(s.length()) + s;
    }
}
