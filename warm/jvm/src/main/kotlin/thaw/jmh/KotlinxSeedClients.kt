// kotlinx.serialization on Clients, with the seed's adapters (warm track only). kotlinx has no
// serializer of its own for java.util.UUID, java.math.BigDecimal, java.time.LocalDate or
// java.time.OffsetDateTime; the seed's Kotlin port of java-json-benchmark's Clients
// (github.com/chaokunyang/kotlin-json-benchmarks, the source of the seed's warmed Clients rows)
// gives kotlinx one KSerializer per type, file-wide (@UseSerializers): UUID, LocalDate and
// OffsetDateTime as the JDK's toString() text, read back by the JDK's parse; BigDecimal as an
// unquoted JSON number of its toString(), read back from the decoded JSON element's text. The
// same four adapters, written here, on immutable @Serializable data classes of thaw's Clients
// (emails and phones as lists, as thaw's Java model has them). The calls are the own-mode
// kotlinx child's (KotlinxLibrary.kt): `decodeFromString` of the bytes decoded from UTF-8 inside
// the call, `encodeToString` encoded to a new byte[] inside the call. The gate checks the round
// trip against the document like every cell's (Gate.java).

@file:UseSerializers(SeedUuid::class, SeedDecimal::class, SeedDate::class, SeedDateTime::class)
@file:OptIn(ExperimentalSerializationApi::class)

package thaw.jmh

import java.math.BigDecimal
import java.nio.charset.StandardCharsets
import java.time.LocalDate
import java.time.OffsetDateTime
import java.util.UUID
import kotlinx.serialization.ExperimentalSerializationApi
import kotlinx.serialization.KSerializer
import kotlinx.serialization.Serializable
import kotlinx.serialization.SerializationException
import kotlinx.serialization.UseSerializers
import kotlinx.serialization.descriptors.PrimitiveKind
import kotlinx.serialization.descriptors.PrimitiveSerialDescriptor
import kotlinx.serialization.descriptors.SerialDescriptor
import kotlinx.serialization.encoding.Decoder
import kotlinx.serialization.encoding.Encoder
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonDecoder
import kotlinx.serialization.json.JsonEncoder
import kotlinx.serialization.json.JsonUnquotedLiteral
import kotlinx.serialization.json.jsonPrimitive
import thaw.jvm.Harness

@Serializable
data class SeedClients(val clients: List<SeedClient>)

@Serializable
data class SeedClient(
    val id: Long,
    val index: Int,
    val guid: UUID,
    val isActive: Boolean,
    val balance: BigDecimal,
    val picture: String,
    val age: Int,
    val eyeColor: SeedEyeColor,
    val name: String,
    val gender: String,
    val company: String,
    val emails: List<String>,
    val phones: List<Long>,
    val address: String,
    val about: String,
    val registered: LocalDate,
    val latitude: Double,
    val longitude: Double,
    val tags: List<String>,
    val partners: List<SeedPartner>,
)

@Serializable
enum class SeedEyeColor { BROWN, BLUE, GREEN }

@Serializable
data class SeedPartner(val id: Long, val name: String, val since: OffsetDateTime)

/** A JDK value as its toString() text, read back by its parse (the seed's UUID, date, date-time adapters). */
abstract class SeedText<T : Any>(name: String, private val parse: (String) -> T) : KSerializer<T> {
    override val descriptor: SerialDescriptor = PrimitiveSerialDescriptor(name, PrimitiveKind.STRING)

    override fun serialize(encoder: Encoder, value: T) = encoder.encodeString(value.toString())

    override fun deserialize(decoder: Decoder): T = parse(decoder.decodeString())
}

object SeedUuid : SeedText<UUID>("thaw.jmh.SeedUuid", UUID::fromString)

object SeedDate : SeedText<LocalDate>("thaw.jmh.SeedDate", LocalDate::parse)

object SeedDateTime : SeedText<OffsetDateTime>("thaw.jmh.SeedDateTime", OffsetDateTime::parse)

/** An exact decimal as an unquoted JSON number (its toString()), never through a Double (the seed's). */
object SeedDecimal : KSerializer<BigDecimal> {
    override val descriptor: SerialDescriptor = PrimitiveSerialDescriptor("thaw.jmh.SeedDecimal", PrimitiveKind.DOUBLE)

    override fun serialize(encoder: Encoder, value: BigDecimal) {
        val json = encoder as? JsonEncoder ?: throw SerializationException("SeedDecimal writes JSON only")
        json.encodeJsonElement(JsonUnquotedLiteral(value.toString()))
    }

    override fun deserialize(decoder: Decoder): BigDecimal {
        val json = decoder as? JsonDecoder ?: throw SerializationException("SeedDecimal reads JSON only")
        return BigDecimal(json.decodeJsonElement().jsonPrimitive.content)
    }
}

/** The library side of kotlinx on Clients with the seed's adapters (Harness.Library, as the cold child's). */
class KotlinxSeedClients : Harness.Library {
    private var json: Json? = null

    override fun init(model: String?) {
        if (model != "clients") throw IllegalArgumentException("kotlinx with the seed's adapters expresses clients, not $model")
        json = Json
    }

    override fun de(data: ByteArray): Any = json!!.decodeFromString<SeedClients>(String(data, StandardCharsets.UTF_8))

    override fun ser(value: Any): ByteArray = json!!.encodeToString(value as SeedClients).encodeToByteArray()

    override fun writeBack(decoded: Any): ByteArray = ser(decoded)

    override fun version(): String =
        Harness.jarVersion(Json::class.java, "org.jetbrains.kotlinx", "kotlinx-serialization-json")
}
