// kotlinx.serialization JSON on the common DTO (Users.kt): as thaw.jvm.kotlinx.KotlinxLibrary
// on its own data classes, except that a `ser` child's Json is made in init with
// `encodeDefaults = true`: every property of the mutable DTO has a default (for the no-arg
// constructor the other libraries need), and kotlinx leaves a property equal to its default out of
// its output by default (`isActive: false`, `friends: []`), which would not be the document. A
// `de` child takes the default `Json`, as the own-model child does: decoding needs no setting.

package thaw.jvm.common

import java.nio.charset.StandardCharsets
import kotlinx.serialization.json.Json
import thaw.jvm.Harness

class KotlinxCommonLibrary : Harness.Library {
    private var json: Json? = null

    override fun init(model: String?) {
        json = Json
    }

    override fun initSer(model: String?) {
        json = Json { encodeDefaults = true }
    }

    override fun de(data: ByteArray): Any = json!!.decodeFromString<Users>(String(data, StandardCharsets.UTF_8))

    override fun ser(value: Any): ByteArray = json!!.encodeToString(value as Users).encodeToByteArray()

    // The preflight only, after the clock: written with the defaults, as `ser` writes.
    override fun writeBack(decoded: Any): ByteArray =
        Json { encodeDefaults = true }.encodeToString(decoded as Users).toByteArray(StandardCharsets.UTF_8)

    override fun version(): String =
        Harness.jarVersion(Json::class.java, "org.jetbrains.kotlinx", "kotlinx-serialization-json")
}
