"""The Users model as msgspec Structs, for thaw's two msgspec children (`msgspec_child.py`,
`msgspec_decoder_child.py`): declared when `declare()` runs, in a child's model phase. Making a
Struct class builds no decoder: msgspec compiles one per type when a decoder is made for it
(`msgspec.json.Decoder(Users)`) or on the first `msgspec.json.decode(..., type=Users)`."""
import users_fields


def declare():
    """The classes (Users, User, Friend)."""
    import msgspec

    class Friend(msgspec.Struct):
        id: str
        name: str

    class User(msgspec.Struct):
        id: str
        index: int
        guid: str
        isActive: bool
        balance: str
        picture: str
        age: int
        eyeColor: str
        name: str
        gender: str
        company: str
        email: str
        phone: str
        address: str
        about: str
        registered: str
        latitude: float
        longitude: float
        tags: list[str]
        friends: list[Friend]
        greeting: str
        favoriteFruit: str

    class Users(msgspec.Struct):
        users: list[User]

    return Users, User, Friend


def from_tree(tree, classes):
    return users_fields.build(tree, *classes)


def as_tree(value):
    return users_fields.as_dicts(value)


def version():
    from importlib.metadata import version

    return version("msgspec")
