// The JVM floor (docs/child-protocol.md): the JVM's start and the harness, with no library: `de`
// hands the document's fresh copy back, `ser` the input's bytes; its checksum is FNV-1a of the
// input's bytes for both. Its class path is the harness alone.

package thaw.jvm.floor;

import thaw.jvm.Harness;
import thaw.jvm.Tree;

public final class FloorChild implements Harness.Child {
    public static void main(String[] argv) {
        long main = System.nanoTime();
        Harness.run(main, argv, new FloorChild());
    }

    public boolean baseline() { return true; }
    public boolean supports(String model) { return true; }
    public Object fromTree(String model, Tree tree) { return null; }
    public long digest(String model, Object decoded) { return 0; }
    public Harness.Library library() { return new Harness.NoLibrary(); }
}
