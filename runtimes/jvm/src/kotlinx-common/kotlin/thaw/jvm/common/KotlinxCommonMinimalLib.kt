// The library's calls of KotlinxCommonMinimal (a minimal program): the `Json` a short-lived
// program makes (with the defaults written for `ser`, as the child's), one decode or encode.

package thaw.jvm.common

import java.nio.charset.StandardCharsets
import kotlinx.serialization.json.Json

class KotlinxCommonMinimalLib(ser: Boolean) {
    private val json: Json = if (ser) Json { encodeDefaults = true } else Json

    fun de(data: ByteArray): Any = json.decodeFromString<Users>(String(data, StandardCharsets.UTF_8))

    fun ser(value: Any): Any = json.encodeToString(value as Users).encodeToByteArray()
}
