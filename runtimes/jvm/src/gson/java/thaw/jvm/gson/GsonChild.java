// The cold child of Gson (docs/child-protocol.md), Users only: one Gson made in init, `fromJson`
// of the document decoded from UTF-8 inside the timed call (Gson reads text, a String or a
// Reader, not bytes), `toJson` (a new String per call).
//
// Clients is not expressed: Gson has no type adapters for java.time (LocalDate, OffsetDateTime)
// and no official module for them, so they would need hand-written TypeAdapters.

package thaw.jvm.gson;

import com.google.gson.Gson;
import java.nio.charset.StandardCharsets;
import thaw.jvm.Harness;
import thaw.jvm.Tree;
import thaw.jvm.model.Users;

public final class GsonChild implements Harness.Child {
    public static void main(String[] argv) {
        long main = System.nanoTime();
        Harness.run(main, argv, new GsonChild());
    }

    public boolean supports(String model) { return model.equals("users"); }
    public Class<?>[] modelClasses(String model) { return Users.classes(); }
    public Object fromTree(String model, Tree tree) { return Users.fromTree(tree); }
    public long digest(String model, Object decoded) { return Users.digest((Users) decoded); }
    public Harness.Library library() { return new Lib(); }

    /** Gson's calls; this class, and with it Gson's, loads in init. */
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
            // Gson's manifest has a Bundle-Version only; its Maven metadata has the release.
            return Harness.jarVersion(Gson.class, "com.google.code.gson", "gson");
        }
    }
}
