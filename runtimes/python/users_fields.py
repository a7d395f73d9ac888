"""The Users model's shape for thaw's typed Python children, declared once: the fields of each
class in the document's order with their JSON names (crates/codecs/src/models/users.rs; the same
as the JVM's and Go's), and, by hand and with no library, the two crossings between a typed
value and the runtime's dicts that the harness needs around the clock:

  * `build(tree, Users, User, Friend)`: a `ser` child's value, built before the clock from the
    neutral tree with the library's own constructors (keyword arguments);
  * `as_dicts(users)`: a decoded value as dicts and lists, for the harness's walk in the check
    phase (attribute reads only: no library code).

Each typed child declares its classes with these field names as attribute names (the JSON names,
camelCase), so neither library is configured to rename: what it reads and writes is its default.
"""

# The fields of each class, in the document's order.
USERS = ("users",)
USER = (
    "id", "index", "guid", "isActive", "balance", "picture", "age", "eyeColor", "name", "gender",
    "company", "email", "phone", "address", "about", "registered", "latitude", "longitude",
    "tags", "friends", "greeting", "favoriteFruit",
)
FRIEND = ("id", "name")


def build(tree, users_cls, user_cls, friend_cls):
    """A Users value from the neutral tree's dicts, with the classes' constructors."""

    def user(d):
        kwargs = {name: d[name] for name in USER}
        kwargs["latitude"] = float(kwargs["latitude"])
        kwargs["longitude"] = float(kwargs["longitude"])
        kwargs["tags"] = list(kwargs["tags"])
        kwargs["friends"] = [friend_cls(**{k: f[k] for k in FRIEND}) for f in d["friends"]]
        return user_cls(**kwargs)

    return users_cls(**{USERS[0]: [user(u) for u in tree[USERS[0]]]})


def as_dicts(users):
    """A typed Users value as dicts and lists, by attribute, in the model's order."""
    out = []
    for u in getattr(users, USERS[0]):
        d = {}
        for name in USER:
            v = getattr(u, name)
            if name == "friends":
                v = [{k: getattr(f, k) for k in FRIEND} for f in v]
            elif name == "tags":
                v = list(v)
            d[name] = v
        out.append(d)
    return {USERS[0]: out}
