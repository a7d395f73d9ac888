// Gson on the common DTO (Users.kt): as thaw.jvm.gson.GsonChild on its own model.

package thaw.jvm.common;

import com.google.gson.Gson;
import java.nio.charset.StandardCharsets;
import thaw.jvm.Harness;

public final class GsonCommonChild extends CommonChild {
    public static void main(String[] argv) {
        long main = System.nanoTime();
        Harness.run(main, argv, new GsonCommonChild());
    }

    public Harness.Library library() { return new Lib(); }

    static final class Lib implements Harness.Library {
        private Gson gson;

        public void init(String model) { gson = new Gson(); }

        public Object de(byte[] data) {
            return gson.fromJson(new String(data, StandardCharsets.UTF_8), Users.class);
        }

        public byte[] ser(Object value) { return gson.toJson(value).getBytes(StandardCharsets.UTF_8); }

        public byte[] writeBack(Object decoded) {
            return gson.toJson(decoded).getBytes(StandardCharsets.UTF_8);
        }

        public String version() {
            return Harness.jarVersion(Gson.class, "com.google.code.gson", "gson");
        }
    }
}
