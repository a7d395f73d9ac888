// The cold child of Gson on Users (docs/child-protocol.md): one Gson made in init, `fromJson` of
// the document decoded from UTF-8 (Gson reads text, not bytes), `toJson` (a new String per call).

import com.google.gson.Gson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

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
        // The jar's Maven metadata (Debian's gson.jar has no implementation version, and its
        // Bundle-Version is not the release's).
        String pom = "/META-INF/maven/com.google.code.gson/gson/pom.properties";
        try (InputStream in = Gson.class.getResourceAsStream(pom)) {
            if (in == null) return "unknown";
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
