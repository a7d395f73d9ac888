"""The cold child of pydantic v2 (docs/child-protocol.md), on the Users model: its classes are
declared in the model phase (`model`), where pydantic-core builds each class's validator and
serializer as the class is made; `Users.model_validate_json` of the document's bytes (jiter
parses and validates in one pass), `Users.model_dump_json` of the value (a new string per call;
compact UTF-8 by default). `write_back` runs only in the preflight (`--check-file`)."""
import time

MAIN = time.monotonic_ns()

import sys  # noqa: E402

import harness  # noqa: E402
import users_fields  # noqa: E402

Users = User = Friend = None


def model():
    global Users, User, Friend
    from pydantic import BaseModel

    class Friend(BaseModel):
        id: str
        name: str

    class User(BaseModel):
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
        users: list[User]


def init():
    pass


def de(data):
    return Users.model_validate_json(data)


def ser(value):
    return value.model_dump_json()


def write_back(value):
    return value.model_dump_json()


def from_tree(tree):
    return users_fields.build(tree, Users, User, Friend)


def as_tree(value):
    return users_fields.as_dicts(value)


def version():
    from importlib.metadata import version

    return f"{version('pydantic')} (pydantic-core {version('pydantic-core')})"


harness.run(MAIN, sys.modules[__name__])
