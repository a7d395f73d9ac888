// The Users model of thaw's fixtures (crates/codecs/src/models/users.rs) as plain Java classes with
// public fields named as the JSON's, which Gson, Jackson and Fory JSON all map without
// annotations; built by hand from the neutral tree for `ser` (no JSON library before the clock),
// and walked by hand for the `de` checksum (thaw.jvm.Digest; no reflection, no library).

package thaw.jvm.model;

import java.util.ArrayList;
import java.util.List;
import thaw.jvm.Digest;
import thaw.jvm.Tree;

public final class Users {
    public List<User> users;

    public static final class User {
        public String id;
        public int index;
        public String guid;
        public boolean isActive;
        public String balance;
        public String picture;
        public int age;
        public String eyeColor;
        public String name;
        public String gender;
        public String company;
        public String email;
        public String phone;
        public String address;
        public String about;
        public String registered;
        public double latitude;
        public double longitude;
        public List<String> tags;
        public List<Friend> friends;
        public String greeting;
        public String favoriteFruit;
    }

    public static final class Friend {
        public String id;
        public String name;
    }

    /** The model's classes, the root first (the harness initialises them in `model`). */
    public static Class<?>[] classes() {
        return new Class<?>[] {Users.class, User.class, Friend.class};
    }

    public static Users fromTree(Tree root) {
        Users u = new Users();
        List<Tree> all = root.get("users").items();
        u.users = new ArrayList<>(all.size());
        for (Tree m : all) {
            User x = new User();
            x.id = m.get("id").str();
            x.index = m.get("index").i32();
            x.guid = m.get("guid").str();
            x.isActive = m.get("isActive").bool();
            x.balance = m.get("balance").str();
            x.picture = m.get("picture").str();
            x.age = m.get("age").i32();
            x.eyeColor = m.get("eyeColor").str();
            x.name = m.get("name").str();
            x.gender = m.get("gender").str();
            x.company = m.get("company").str();
            x.email = m.get("email").str();
            x.phone = m.get("phone").str();
            x.address = m.get("address").str();
            x.about = m.get("about").str();
            x.registered = m.get("registered").str();
            x.latitude = m.get("latitude").f64();
            x.longitude = m.get("longitude").f64();
            List<Tree> tags = m.get("tags").items();
            x.tags = new ArrayList<>(tags.size());
            for (Tree t : tags) x.tags.add(t.str());
            List<Tree> friends = m.get("friends").items();
            x.friends = new ArrayList<>(friends.size());
            for (Tree f : friends) {
                Friend fr = new Friend();
                fr.id = f.get("id").str();
                fr.name = f.get("name").str();
                x.friends.add(fr);
            }
            x.greeting = m.get("greeting").str();
            x.favoriteFruit = m.get("favoriteFruit").str();
            u.users.add(x);
        }
        return u;
    }

    /** The structural walk (Digest's grammar), in the JSON's field order. */
    public static long digest(Users u) {
        Digest d = new Digest();
        d.object(1);
        d.array(u.users.size());
        for (User x : u.users) {
            d.object(22);
            d.str(x.id).i64(x.index).str(x.guid).bool(x.isActive).str(x.balance).str(x.picture)
                .i64(x.age).str(x.eyeColor).str(x.name).str(x.gender).str(x.company).str(x.email)
                .str(x.phone).str(x.address).str(x.about).str(x.registered).f64(x.latitude)
                .f64(x.longitude);
            d.array(x.tags.size());
            for (String t : x.tags) d.str(t);
            d.array(x.friends.size());
            for (Friend f : x.friends) d.object(2).str(f.id).str(f.name);
            d.str(x.greeting).str(x.favoriteFruit);
        }
        return d.value();
    }
}
