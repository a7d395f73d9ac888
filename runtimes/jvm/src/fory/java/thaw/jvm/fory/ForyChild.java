// The cold child of Apache Fory's JSON codec (fory-json; docs/child-protocol.md), Users and
// Clients (its own codecs cover UUID, BigDecimal, LocalDate and OffsetDateTime): one ForyJson
// made in init with the builder's defaults (code generation on, compiled asynchronously),
// `fromJson(byte[], type)` (bytes), `toJsonBytes` (a new byte[] per call).
//
// For the investigation of FORY-NOTES.md only: -Dthaw.fory.codegen=false and
// -Dthaw.fory.async=false turn the builder's code generation or its asynchronous compilation
// off (read before the clock; without them the builder is left as it is).

package thaw.jvm.fory;

import org.apache.fory.json.ForyJson;
import org.apache.fory.json.ForyJsonBuilder;
import thaw.jvm.Harness;
import thaw.jvm.Tree;
import thaw.jvm.model.Clients;
import thaw.jvm.model.Users;

public final class ForyChild implements Harness.Child {
    private final String codegen = System.getProperty("thaw.fory.codegen");
    private final String async = System.getProperty("thaw.fory.async");

    public static void main(String[] argv) {
        long main = System.nanoTime();
        Harness.run(main, argv, new ForyChild());
    }

    public boolean supports(String model) {
        return model.equals("users") || model.equals("clients");
    }

    public Class<?>[] modelClasses(String model) {
        return model.equals("clients") ? Clients.classes() : Users.classes();
    }

    public Object fromTree(String model, Tree tree) {
        return model.equals("clients") ? Clients.fromTree(tree) : Users.fromTree(tree);
    }

    public long digest(String model, Object decoded) {
        return model.equals("clients") ? Clients.digest((Clients) decoded) : Users.digest((Users) decoded);
    }

    public Harness.Library library() { return new Lib(codegen, async); }

    /** Fory's calls; this class, and with it Fory's, loads in init. */
    static final class Lib implements Harness.Library {
        private final String codegen;
        private final String async;
        private ForyJson fory;
        private Class<?> type;

        Lib(String codegen, String async) {
            this.codegen = codegen;
            this.async = async;
        }

        public void init(String model) {
            type = model.equals("clients") ? Clients.class : Users.class;
            ForyJsonBuilder builder = ForyJson.builder();
            if (codegen != null) builder.withCodegen(Boolean.parseBoolean(codegen));
            if (async != null) builder.withAsyncCompilation(Boolean.parseBoolean(async));
            fory = builder.build();
        }

        public Object de(byte[] data) { return fory.fromJson(data, type); }

        public byte[] ser(Object value) { return fory.toJsonBytes(value); }

        public byte[] writeBack(Object decoded) { return fory.toJsonBytes(decoded); }

        public String version() {
            return Harness.jarVersion(ForyJson.class, "org.apache.fory", "fory-json");
        }
    }
}
