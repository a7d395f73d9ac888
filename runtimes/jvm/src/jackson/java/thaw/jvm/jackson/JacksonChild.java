// The cold child of Jackson databind (docs/child-protocol.md), Users and Clients: one mapper made
// in init, `readValue(byte[], type)` (bytes), `writeValueAsBytes` (a new byte[] per call).
// Users: a plain ObjectMapper. Clients: a JsonMapper with Jackson's official java.time module
// (jackson-datatype-jsr310), dates as ISO text (not timestamps), offsets kept as written (not
// moved to UTC), and an OffsetDateTime written by its own toString (databind's
// ToStringSerializer): ISO 8601 with the nanoseconds in groups of three as the fixtures write
// them (the module's default, ISO_OFFSET_DATE_TIME, drops trailing zeros: .510288320 would be
// written .51028832, the same instant but not the fixture's text).

package thaw.jvm.jackson;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.time.OffsetDateTime;
import thaw.jvm.Harness;
import thaw.jvm.Tree;
import thaw.jvm.model.Clients;
import thaw.jvm.model.Users;

public final class JacksonChild implements Harness.Child {
    public static void main(String[] argv) {
        long main = System.nanoTime();
        Harness.run(main, argv, new JacksonChild());
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

    public Harness.Library library() { return new Lib(); }

    /** Jackson's calls; this class, and with it Jackson's, loads in init. */
    static final class Lib implements Harness.Library {
        private ObjectMapper mapper;
        private Class<?> type;

        public void init(String model) {
            if (model.equals("clients")) {
                mapper = ClientsMapper.make();
                type = Clients.class;
            } else {
                mapper = new ObjectMapper();
                type = Users.class;
            }
        }

        public Object de(byte[] data) throws Exception { return mapper.readValue(data, type); }

        public byte[] ser(Object value) throws Exception { return mapper.writeValueAsBytes(value); }

        public byte[] writeBack(Object decoded) throws Exception {
            return mapper.writeValueAsBytes(decoded);
        }

        public String version() {
            return com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.toString();
        }
    }

    /**
     * Clients' mapper, in a class of its own: Lib's verifier then loads none of its types
     * (JsonMapper, JavaTimeModule, ToStringSerializer), so a Users cell pays for no Clients class.
     */
    static final class ClientsMapper {
        static ObjectMapper make() {
            return JsonMapper.builder()
                .addModule(new JavaTimeModule())
                .addModule(new SimpleModule().addSerializer(OffsetDateTime.class, ToStringSerializer.instance))
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
                .build();
        }
    }
}
