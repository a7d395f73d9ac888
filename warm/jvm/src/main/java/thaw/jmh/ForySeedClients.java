// Apache Fory JSON on Clients, with one adapter (warm track only). Fory's own codecs cover
// UUID, BigDecimal and LocalDate, and the seed uses them; its own OffsetDateTime codec writes the
// fraction without its trailing zeros (`.79520032` for the document's `.795200320`: the same
// instant in other text), which the seed accepts by comparing date-times as values, and which
// thaw's gate, comparing text, refuses. So this registers, with ForyJsonBuilder#registerCodec,
// the adapter the seed gives kotlinx for the same type: the JDK's toString() text, read back by
// OffsetDateTime.parse. Everything else is the own-mode Fory child's (ForyChild.java): thaw's Java
// Clients model, the builder's defaults, `fromJson(byte[], type)` and `toJsonBytes`. The gate
// checks the round trip against the document like every cell's (Gate.java).

package thaw.jmh;

import java.time.OffsetDateTime;
import org.apache.fory.json.ForyJson;
import org.apache.fory.json.codec.AbstractJsonValueCodec;
import org.apache.fory.json.reader.JsonReader;
import org.apache.fory.json.writer.JsonWriter;
import thaw.jvm.Harness;
import thaw.jvm.model.Clients;

final class ForySeedClients implements Harness.Library {
    /** An OffsetDateTime as the JDK's toString() text, read back by its parse. */
    static final class DateTimeAsText extends AbstractJsonValueCodec<OffsetDateTime> {
        @Override
        public void write(JsonWriter writer, OffsetDateTime value) {
            if (value == null) writer.writeNull();
            else writer.writeString(value.toString());
        }

        @Override
        public OffsetDateTime read(JsonReader reader) {
            if (reader.tryReadNull()) return null;
            return OffsetDateTime.parse(reader.readString());
        }
    }

    private ForyJson fory;

    public void init(String model) {
        if (!"clients".equals(model)) {
            throw new IllegalArgumentException("fory with the seed's adapters expresses clients, not " + model);
        }
        fory = ForyJson.builder().registerCodec(OffsetDateTime.class, new DateTimeAsText()).build();
    }

    public Object de(byte[] data) { return fory.fromJson(data, Clients.class); }

    public byte[] ser(Object value) { return fory.toJsonBytes(value); }

    public byte[] writeBack(Object decoded) { return fory.toJsonBytes(decoded); }

    public String version() { return Harness.jarVersion(ForyJson.class, "org.apache.fory", "fory-json"); }
}
