// The JVM floor (docs/child-protocol.md): the JVM's start and the harness, with no library: `de`
// takes the input's length, `ser` hands the input's bytes back.

public final class FloorChild implements Harness.Library {
    public static void main(String[] argv) throws Exception {
        long main = System.nanoTime();
        Harness.run(main, argv, new FloorChild());
    }

    public void init() {}
    public Object de(byte[] data) { return data.length; }
    public Object ser(Object value) { return value; }
    public byte[] writeBack(Object value) { return String.valueOf(value).getBytes(); }
    public boolean baseline() { return true; }
    public String version() { return System.getProperty("java.version"); }
}
