// The JVM floor of the common-DTO mode: jvm-floor with the common children's class path
// (Kotlin's stdlib and kotlinx-serialization-core) and, for `ser`, the common DTO built from the
// tree before the clock as they build it (and kept to the end); then, as the floor, `de` hands
// the document's copy back and `ser` the input's bytes, with FNV-1a of the input as checksum.

package thaw.jvm.common;

import thaw.jvm.Harness;
import thaw.jvm.Tree;

public final class FloorCommonChild implements Harness.Child {
    public static void main(String[] argv) {
        long main = System.nanoTime();
        Harness.run(main, argv, new FloorCommonChild());
    }

    public boolean baseline() { return true; }
    public boolean baselineBuildsModel() { return true; }
    public boolean supports(String model) { return model.equals("users"); }
    public Class<?>[] modelClasses(String model) { return CommonModel.classes(); }
    public Object fromTree(String model, Tree tree) { return CommonModel.fromTree(tree); }
    public long digest(String model, Object decoded) { return 0; }
    public Harness.Library library() { return new Harness.NoLibrary(); }
}
