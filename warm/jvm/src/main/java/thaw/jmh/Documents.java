// The documents: thaw's own, written by `fixtures generate --out DIR <fixture>...` as
// DIR/<fixture>.json, read whole; the model is the root object's key (thaw.jvm.Tree, as the cold
// children find it).

package thaw.jmh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import thaw.jvm.Tree;

final class Documents {
    private Documents() {}

    /** One fixture's document and its model (`users`, `clients`). */
    record Document(String fixture, byte[] bytes, String model) {}

    /** The largest document read (thaw's largest generated fixture is about 1 MB). */
    static final long LIMIT = 64L << 20;

    /** The folder of the `thaw.docs` system property. */
    static Path folder() {
        String dir = System.getProperty(Flags.DOCS);
        if (dir == null || dir.isEmpty()) {
            throw new IllegalStateException("no documents folder: give -D" + Flags.DOCS
                + "=DIR (DIR holds <fixture>.json, from `cargo run --release -p fixtures -- generate --out DIR <fixture>...`)");
        }
        return Paths.get(dir);
    }

    static boolean validName(String fixture) {
        return fixture != null && fixture.matches("[a-z0-9][a-z0-9_.-]{0,63}") && !fixture.contains("..");
    }

    static Document load(Path folder, String fixture) throws IOException {
        if (!validName(fixture)) {
            throw new IllegalArgumentException("fixture `" + fixture + "`: a fixture is a name like users-2kb (a-z, 0-9, `-`, `_`, `.`)");
        }
        Path file = folder.resolve(fixture + ".json");
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(file + ": no such document (a regular file, not a link); write it with "
                + "`cargo run --release -p fixtures -- generate --out " + folder + " " + fixture + "`");
        }
        long size = Files.size(file);
        if (size > LIMIT) throw new IOException(file + ": " + size + " bytes, more than the " + LIMIT + " read");
        byte[] bytes = Files.readAllBytes(file);
        String model = Tree.documentModel(bytes);
        if (model == null) throw new IOException(file + ": not a JSON object with a first key (the model)");
        return new Document(fixture, bytes, model);
    }
}
