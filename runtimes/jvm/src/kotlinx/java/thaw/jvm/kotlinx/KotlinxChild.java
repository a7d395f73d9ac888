// The kotlinx child's main class and model side, in Java so that `main` is stamped before any
// Kotlin class loads (a Kotlin `main` checks its argument with kotlin.jvm.internal.Intrinsics
// first) and the check walks the data classes (Users.kt) with no Kotlin call but their getters.
// The library's calls are in KotlinxLibrary.kt, loaded in init.

package thaw.jvm.kotlinx;

import java.util.ArrayList;
import java.util.List;
import thaw.jvm.Digest;
import thaw.jvm.Harness;
import thaw.jvm.Tree;

public final class KotlinxChild implements Harness.Child {
    public static void main(String[] argv) {
        long main = System.nanoTime();
        Harness.run(main, argv, new KotlinxChild());
    }

    public boolean supports(String model) { return model.equals("users"); }

    public Harness.Library library() { return new KotlinxLibrary(); }

    /** The data classes (Users.kt), the root first (the harness initialises them in `model`). */
    public Class<?>[] modelClasses(String model) {
        return new Class<?>[] {Users.class, User.class, Friend.class};
    }

    /** The data classes built by hand from the neutral tree (their constructors). */
    public Object fromTree(String model, Tree root) {
        List<Tree> all = root.get("users").items();
        List<User> users = new ArrayList<>(all.size());
        for (Tree m : all) {
            List<Tree> tagTrees = m.get("tags").items();
            List<String> tags = new ArrayList<>(tagTrees.size());
            for (Tree t : tagTrees) tags.add(t.str());
            List<Tree> friendTrees = m.get("friends").items();
            List<Friend> friends = new ArrayList<>(friendTrees.size());
            for (Tree f : friendTrees) friends.add(new Friend(f.get("id").str(), f.get("name").str()));
            users.add(new User(
                m.get("id").str(),
                m.get("index").i32(),
                m.get("guid").str(),
                m.get("isActive").bool(),
                m.get("balance").str(),
                m.get("picture").str(),
                m.get("age").i32(),
                m.get("eyeColor").str(),
                m.get("name").str(),
                m.get("gender").str(),
                m.get("company").str(),
                m.get("email").str(),
                m.get("phone").str(),
                m.get("address").str(),
                m.get("about").str(),
                m.get("registered").str(),
                m.get("latitude").f64(),
                m.get("longitude").f64(),
                tags,
                friends,
                m.get("greeting").str(),
                m.get("favoriteFruit").str()));
        }
        return new Users(users);
    }

    /** The structural walk (Digest's grammar), in the JSON's field order: the Java model's. */
    public long digest(String model, Object decoded) {
        Users u = (Users) decoded;
        Digest d = new Digest();
        d.object(1);
        d.array(u.getUsers().size());
        for (User x : u.getUsers()) {
            d.object(22);
            d.str(x.getId()).i64(x.getIndex()).str(x.getGuid()).bool(x.isActive()).str(x.getBalance())
                .str(x.getPicture()).i64(x.getAge()).str(x.getEyeColor()).str(x.getName())
                .str(x.getGender()).str(x.getCompany()).str(x.getEmail()).str(x.getPhone())
                .str(x.getAddress()).str(x.getAbout()).str(x.getRegistered()).f64(x.getLatitude())
                .f64(x.getLongitude());
            d.array(x.getTags().size());
            for (String t : x.getTags()) d.str(t);
            d.array(x.getFriends().size());
            for (Friend f : x.getFriends()) d.object(2).str(f.getId()).str(f.getName());
            d.str(x.getGreeting()).str(x.getFavoriteFruit());
        }
        return d.value();
    }
}
