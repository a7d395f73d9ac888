// The Users model of thaw's fixtures (crates/codecs/src/models/users.rs) as kotlinx.serialization's
// users write it: immutable @Serializable data classes. Built by hand from the neutral tree and
// walked by hand for the checksum in KotlinxChild.java.

package thaw.jvm.kotlinx

import kotlinx.serialization.Serializable

@Serializable
data class Users(val users: List<User>)

@Serializable
data class User(
    val id: String,
    val index: Int,
    val guid: String,
    val isActive: Boolean,
    val balance: String,
    val picture: String,
    val age: Int,
    val eyeColor: String,
    val name: String,
    val gender: String,
    val company: String,
    val email: String,
    val phone: String,
    val address: String,
    val about: String,
    val registered: String,
    val latitude: Double,
    val longitude: Double,
    val tags: List<String>,
    val friends: List<Friend>,
    val greeting: String,
    val favoriteFruit: String,
)

@Serializable
data class Friend(val id: String, val name: String)
