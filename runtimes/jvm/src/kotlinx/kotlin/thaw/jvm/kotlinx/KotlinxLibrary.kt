// The cold child of kotlinx.serialization JSON (docs/child-protocol.md), Users only: the `Json`
// object taken in init, `decodeFromString<Users>` of the document decoded from UTF-8 inside the
// timed call (kotlinx's JSON reads text: a String; its stream API is for streams), and
// `encodeToString` encoded to UTF-8 inside the call (a new byte[] per call, as every JVM child
// hands over), both in the reified form its guide shows.
//
// Clients is not expressed: kotlinx.serialization has no serializer of its own for an exact
// decimal (BigDecimal) or a date-time with its offset (kotlinx-datetime has no offset date-time
// type), so they would need hand-written KSerializers.

package thaw.jvm.kotlinx

import java.nio.charset.StandardCharsets
import kotlinx.serialization.json.Json
import thaw.jvm.Harness

class KotlinxLibrary : Harness.Library {
    private var json: Json? = null

    override fun init(model: String?) {
        json = Json
    }

    override fun de(data: ByteArray): Any = json!!.decodeFromString<Users>(String(data, StandardCharsets.UTF_8))

    override fun ser(value: Any): ByteArray = json!!.encodeToString(value as Users).encodeToByteArray()

    override fun writeBack(decoded: Any): ByteArray =
        json!!.encodeToString(decoded as Users).toByteArray(StandardCharsets.UTF_8)

    override fun version(): String =
        Harness.jarVersion(Json::class.java, "org.jetbrains.kotlinx", "kotlinx-serialization-json")
}
