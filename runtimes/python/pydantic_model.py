"""The Users model as pydantic v2 BaseModels, for thaw's two pydantic children
(`pydantic_child.py`, `pydantic_deferred_child.py`): declared when `declare()` runs, in a child's
model phase. By default pydantic-core builds each class's validator and serializer as the class
is made; with `defer_build=True` it builds them at the class's first use instead."""
import users_fields


def declare(defer_build=False):
    """The classes (Users, User, Friend)."""
    from pydantic import BaseModel, ConfigDict

    config = ConfigDict(defer_build=defer_build)

    class Friend(BaseModel):
        model_config = config
        id: str
        name: str

    class User(BaseModel):
        model_config = config
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

    class Users(BaseModel):
        model_config = config
        users: list[User]

    return Users, User, Friend


def from_tree(tree, classes):
    return users_fields.build(tree, *classes)


def as_tree(value):
    return users_fields.as_dicts(value)


def version():
    from importlib.metadata import version

    return f"{version('pydantic')} (pydantic-core {version('pydantic-core')})"
