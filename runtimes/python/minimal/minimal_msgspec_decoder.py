"""The reference for the cold child `msgspec-decoder` (scripts/first-call-vs-minimal.py
--python): a Python program that reads one Users document, copies it, and imports msgspec,
declares the Users model's Structs, makes a `msgspec.json.Decoder(Users)` and decodes it once
with it, and nothing else of the protocol: no harness, no arguments but the document's path, no
other library. It prints its CLOCK_MONOTONIC reads (time.monotonic_ns, the harness's clock): at
main, before the library's part and after it."""
import time

MAIN = time.monotonic_ns()

import sys  # noqa: E402

with open(sys.argv[1], "rb") as f:
    document = f.read()
copied = bytes(memoryview(document))
before = time.monotonic_ns()
import msgspec  # noqa: E402


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


decoder = msgspec.json.Decoder(Users)
value = decoder.decode(copied)
users = value.users
after = time.monotonic_ns()
sys.stdout.write('{"main":%d,"before":%d,"after":%d,"users":%d}\n' % (MAIN, before, after, len(users)))
