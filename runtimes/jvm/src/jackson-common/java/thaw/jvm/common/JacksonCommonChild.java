// Jackson databind on the common DTO (Users.kt): as thaw.jvm.jackson.JacksonChild on its own
// Users model (a plain ObjectMapper; no Kotlin module: the DTO's fields are public).

package thaw.jvm.common;

import com.fasterxml.jackson.databind.ObjectMapper;
import thaw.jvm.Harness;

public final class JacksonCommonChild extends CommonChild {
    public static void main(String[] argv) {
        long main = System.nanoTime();
        Harness.run(main, argv, new JacksonCommonChild());
    }

    public Harness.Library library() { return new Lib(); }

    static final class Lib implements Harness.Library {
        private ObjectMapper mapper;

        public void init(String model) { mapper = new ObjectMapper(); }

        public Object de(byte[] data) throws Exception { return mapper.readValue(data, Users.class); }

        public byte[] ser(Object value) throws Exception { return mapper.writeValueAsBytes(value); }

        public byte[] writeBack(Object decoded) throws Exception {
            return mapper.writeValueAsBytes(decoded);
        }

        public String version() {
            return com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.toString();
        }
    }
}
