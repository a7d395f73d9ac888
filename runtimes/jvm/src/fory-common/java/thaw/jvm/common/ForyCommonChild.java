// Fory JSON on the common DTO (Users.kt): as thaw.jvm.fory.ForyChild on its own Users model,
// with the same investigation-only switches (-Dthaw.fory.codegen, -Dthaw.fory.async).

package thaw.jvm.common;

import org.apache.fory.json.ForyJson;
import org.apache.fory.json.ForyJsonBuilder;
import thaw.jvm.Harness;

public final class ForyCommonChild extends CommonChild {
    private final String codegen = System.getProperty("thaw.fory.codegen");
    private final String async = System.getProperty("thaw.fory.async");

    public static void main(String[] argv) {
        long main = System.nanoTime();
        Harness.run(main, argv, new ForyCommonChild());
    }

    public Harness.Library library() { return new Lib(codegen, async); }

    static final class Lib implements Harness.Library {
        private final String codegen;
        private final String async;
        private ForyJson fory;

        Lib(String codegen, String async) {
            this.codegen = codegen;
            this.async = async;
        }

        public void init(String model) {
            ForyJsonBuilder builder = ForyJson.builder();
            if (codegen != null) builder.withCodegen(Boolean.parseBoolean(codegen));
            if (async != null) builder.withAsyncCompilation(Boolean.parseBoolean(async));
            fory = builder.build();
        }

        public Object de(byte[] data) { return fory.fromJson(data, Users.class); }

        public byte[] ser(Object value) { return fory.toJsonBytes(value); }

        public byte[] writeBack(Object decoded) { return fory.toJsonBytes(decoded); }

        public String version() {
            return Harness.jarVersion(ForyJson.class, "org.apache.fory", "fory-json");
        }
    }
}
