// A minimal program for scripts/first-call-vs-minimal.py --jvm: kotlinx.serialization on the common
// DTO doing only what a short-lived program does (initialise the model's classes, make the `Json`,
// one call), on the kotlinx-common child's class path and flags, with none of the protocol. Prints
// its five System.nanoTime reads, as the other minimal programs. Its calls are
// KotlinxCommonMinimalLib.kt's, loaded after the model.

package thaw.jvm.common;

import java.nio.file.Files;
import java.nio.file.Paths;
import thaw.jvm.Tree;

public final class KotlinxCommonMinimal {
    public static void main(String[] argv) throws Exception {
        boolean de = argv[0].equals("de");
        byte[] data = Files.readAllBytes(Paths.get(argv[1]));
        long t0 = System.nanoTime();
        for (Class<?> c : CommonModel.classes()) Class.forName(c.getName(), true, c.getClassLoader());
        long t1 = System.nanoTime();
        Object value = de ? null : CommonModel.fromTree(Tree.parse(data));
        long t2 = System.nanoTime();
        KotlinxCommonMinimalLib lib = new KotlinxCommonMinimalLib(!de);
        long t3 = System.nanoTime();
        Object out = de ? lib.de(data) : lib.ser(value);
        long t4 = System.nanoTime();
        if (out == null) throw new IllegalStateException("no output");
        System.out.println(t0 + " " + t1 + " " + t2 + " " + t3 + " " + t4);
    }
}
