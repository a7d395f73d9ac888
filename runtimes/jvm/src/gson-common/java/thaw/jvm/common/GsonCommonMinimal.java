// A minimal program for scripts/first-call-vs-minimal.py --jvm: Gson on the common DTO doing only
// what a short-lived program does (initialise the model's classes, make the library's object, one
// call), on the gson-common child's class path and flags, with none of the protocol. Prints its
// five System.nanoTime reads: before and after the model's classes, before and after the object,
// after the call. The library's calls are in a nested class, as in the child, so that no library
// class loads before `main`.

package thaw.jvm.common;

import com.google.gson.Gson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import thaw.jvm.Tree;

public final class GsonCommonMinimal {
    public static void main(String[] argv) throws Exception {
        boolean de = argv[0].equals("de");
        byte[] data = Files.readAllBytes(Paths.get(argv[1]));
        long t0 = System.nanoTime();
        for (Class<?> c : CommonModel.classes()) Class.forName(c.getName(), true, c.getClassLoader());
        long t1 = System.nanoTime();
        Object value = de ? null : CommonModel.fromTree(Tree.parse(data));
        long t2 = System.nanoTime();
        Lib lib = new Lib();
        long t3 = System.nanoTime();
        Object out = de ? lib.de(data) : lib.ser(value);
        long t4 = System.nanoTime();
        if (out == null) throw new IllegalStateException("no output");
        System.out.println(t0 + " " + t1 + " " + t2 + " " + t3 + " " + t4);
    }

    static final class Lib {
        private final Gson gson = new Gson();
        Object de(byte[] data) { return gson.fromJson(new String(data, StandardCharsets.UTF_8), Users.class); }
        Object ser(Object value) { return gson.toJson(value).getBytes(StandardCharsets.UTF_8); }
    }
}
