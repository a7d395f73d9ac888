// The kotlinx-common child's main class, in Java so that `main` is stamped before any Kotlin
// class loads. The library's calls are in KotlinxCommonLibrary.kt, loaded in init.

package thaw.jvm.common;

import thaw.jvm.Harness;

public final class KotlinxCommonChild extends CommonChild {
    public static void main(String[] argv) {
        long main = System.nanoTime();
        Harness.run(main, argv, new KotlinxCommonChild());
    }

    public Harness.Library library() { return new KotlinxCommonLibrary(); }
}
