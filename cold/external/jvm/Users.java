// The Users model of thaw's fixtures (fixtures/src/models/users.rs) as plain Java classes with
// public fields named as the JSON's, which Jackson and Gson both map without annotations, and
// built by hand from the neutral tree for `ser` children (no JSON library involved).

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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

    @SuppressWarnings("unchecked")
    public static Users fromTree(Object tree) {
        Map<String, Object> root = (Map<String, Object>) tree;
        Users u = new Users();
        u.users = new ArrayList<>();
        for (Object o : (List<Object>) root.get("users")) {
            Map<String, Object> m = (Map<String, Object>) o;
            User x = new User();
            x.id = (String) m.get("id");
            x.index = ((Number) m.get("index")).intValue();
            x.guid = (String) m.get("guid");
            x.isActive = (Boolean) m.get("isActive");
            x.balance = (String) m.get("balance");
            x.picture = (String) m.get("picture");
            x.age = ((Number) m.get("age")).intValue();
            x.eyeColor = (String) m.get("eyeColor");
            x.name = (String) m.get("name");
            x.gender = (String) m.get("gender");
            x.company = (String) m.get("company");
            x.email = (String) m.get("email");
            x.phone = (String) m.get("phone");
            x.address = (String) m.get("address");
            x.about = (String) m.get("about");
            x.registered = (String) m.get("registered");
            x.latitude = ((Number) m.get("latitude")).doubleValue();
            x.longitude = ((Number) m.get("longitude")).doubleValue();
            x.tags = new ArrayList<>();
            for (Object t : (List<Object>) m.get("tags")) x.tags.add((String) t);
            x.friends = new ArrayList<>();
            for (Object f : (List<Object>) m.get("friends")) {
                Map<String, Object> fm = (Map<String, Object>) f;
                Friend fr = new Friend();
                fr.id = (String) fm.get("id");
                fr.name = (String) fm.get("name");
                x.friends.add(fr);
            }
            x.greeting = (String) m.get("greeting");
            x.favoriteFruit = (String) m.get("favoriteFruit");
            u.users.add(x);
        }
        return u;
    }
}
