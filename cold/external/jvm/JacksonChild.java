// The cold child of Jackson databind on Users (docs/child-protocol.md): one ObjectMapper made in
// init, `readValue(byte[], Users.class)`, `writeValueAsBytes` (a new byte[] per call).

import com.fasterxml.jackson.databind.ObjectMapper;

public final class JacksonChild implements Harness.Library {
    private ObjectMapper mapper;

    public static void main(String[] argv) throws Exception {
        long main = System.nanoTime();
        Harness.run(main, argv, new JacksonChild());
    }

    public void init() { mapper = new ObjectMapper(); }
    public Object de(byte[] data) throws Exception { return mapper.readValue(data, Users.class); }
    public Object ser(Object value) throws Exception { return mapper.writeValueAsBytes(value); }
    public byte[] writeBack(Object value) throws Exception { return mapper.writeValueAsBytes(value); }
    public Object fromTree(Object tree) { return Users.fromTree(tree); }

    public String version() {
        return com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.toString();
    }
}
