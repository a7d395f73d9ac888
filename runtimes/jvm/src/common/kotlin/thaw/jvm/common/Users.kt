// The seed's common DTO: ONE mutable @Serializable Kotlin class of the Users model that every
// library of the common-DTO mode (`*-common` children) maps, so each of them carries Kotlin's
// stdlib and kotlinx-serialization-core (this class's generated serializer refers to them).
// Every property is a public field (@JvmField, so Gson, Jackson and Fory map the fields, named
// as the JSON's, and no getter renames `isActive`), with a default, so the class has the no-arg
// constructor that Gson, Jackson and Fory call.

package thaw.jvm.common

import kotlinx.serialization.Serializable

@Serializable
class Users {
    @JvmField var users: MutableList<User> = ArrayList()
}

@Serializable
class User {
    @JvmField var id: String = ""
    @JvmField var index: Int = 0
    @JvmField var guid: String = ""
    @JvmField var isActive: Boolean = false
    @JvmField var balance: String = ""
    @JvmField var picture: String = ""
    @JvmField var age: Int = 0
    @JvmField var eyeColor: String = ""
    @JvmField var name: String = ""
    @JvmField var gender: String = ""
    @JvmField var company: String = ""
    @JvmField var email: String = ""
    @JvmField var phone: String = ""
    @JvmField var address: String = ""
    @JvmField var about: String = ""
    @JvmField var registered: String = ""
    @JvmField var latitude: Double = 0.0
    @JvmField var longitude: Double = 0.0
    @JvmField var tags: MutableList<String> = ArrayList()
    @JvmField var friends: MutableList<Friend> = ArrayList()
    @JvmField var greeting: String = ""
    @JvmField var favoriteFruit: String = ""
}

@Serializable
class Friend {
    @JvmField var id: String = ""
    @JvmField var name: String = ""
}
