// The model side shared by the common-DTO children (`*-common`): Users only, the common DTO
// (Users.kt) built and walked by hand (CommonModel). A child extends it with its main and its
// library side.

package thaw.jvm.common;

import thaw.jvm.Harness;
import thaw.jvm.Tree;

public abstract class CommonChild implements Harness.Child {
    public final boolean supports(String model) { return model.equals("users"); }
    public final Class<?>[] modelClasses(String model) { return CommonModel.classes(); }
    public final Object fromTree(String model, Tree tree) { return CommonModel.fromTree(tree); }
    public final long digest(String model, Object decoded) { return CommonModel.digest((Users) decoded); }
}
