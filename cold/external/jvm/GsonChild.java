// The cold child of Gson on Users (docs/child-protocol.md): one Gson made in init, `fromJson` of
// the document decoded from UTF-8 (Gson reads text, not bytes), `toJson` (a new String per call).

import com.google.gson.Gson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

public final class GsonChild implements Harness.Library {
    private Gson gson;

    public static void main(String[] argv) throws Exception {
        long main = System.nanoTime();
        Harness.run(main, argv, new GsonChild());
    }

    public void init() { gson = new Gson(); }
    public Object de(byte[] data) {
        return gson.fromJson(new String(data, StandardCharsets.UTF_8), Users.class);
    }
    public Object ser(Object value) { return gson.toJson(value); }
    public byte[] writeBack(Object value) {
        return gson.toJson(value).getBytes(StandardCharsets.UTF_8);
    }
    public Object fromTree(Object tree) { return Users.fromTree(tree); }

    public String version() {
        String v = Gson.class.getPackage().getImplementationVersion();
        if (v != null) return v;
        // Debian's gson.jar links to gson-<version>.jar.
        try {
            Path jar = Paths.get(Gson.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            String name = jar.toRealPath().getFileName().toString();
            return name.replaceAll("^gson-(.*)\\.jar$", "$1");
        } catch (Exception e) {
            return "unknown";
        }
    }
}
