// The Java compiler's own resolution of every method call in a project (javac's Compiler Tree API, in the JDK): the
// reference `language_calls.py` measures Trident's Java call edges against.
//
// Usage: java JavaReference.java <project folder> <output JSON file>
//
// Every `.java` file under the project is one compilation, analysed (attributed) without a class path: calls into a
// library that is not there resolve to nothing, and are written down as unresolved (judged by nobody). For each
// method invocation, the caller is the outermost method or constructor it is written in (a lambda's or an anonymous
// class's calls are its enclosing method's, as Trident counts them; Trident names a constructor by its class,
// `Foo.Foo`, and a method of an enum constant's body by its enum, `State.process` for `Initial { boolean
// process(...) }` in `enum State`) and the callee is the method javac binds it to, kept when the project declares it. `new Foo()` and
// `super(...)`/`this(...)` are left out (Trident's edge for a construction is to the class).

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class JavaReference {
    static final List<String> defined = new ArrayList<>();
    static final List<String> pairs = new ArrayList<>();
    static final List<String> resolved = new ArrayList<>();

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args[0]).toAbsolutePath().normalize();
        List<Path> sources;
        try (Stream<Path> walk = Files.walk(root)) {
            sources = walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8);
        List<String> options = List.of("-proc:none", "-Xmaxerrs", "100000", "-implicit:none");
        JavacTask task = (JavacTask) compiler.getTask(
            null, files, diagnostics, options, null, files.getJavaFileObjectsFromPaths(sources));
        Iterable<? extends CompilationUnitTree> units = task.parse();
        task.analyze();
        Trees trees = Trees.instance(task);
        SourcePositions positions = trees.getSourcePositions();
        for (CompilationUnitTree unit : units) {
            String path = root.relativize(Path.of(unit.getSourceFile().toUri()).normalize()).toString();
            new TreePathScanner<Void, Void>() {
                @Override
                public Void visitMethod(MethodTree method, Void unused) {
                    TreePath at = getCurrentPath();
                    if (outermost(at) == method) {
                        String name = identity(trees.getElement(at));
                        if (name != null) {
                            long first = unit.getLineMap().getLineNumber(positions.getStartPosition(unit, method));
                            long last = unit.getLineMap().getLineNumber(positions.getEndPosition(unit, method));
                            defined.add(json(path, name, first, last));
                        }
                    }
                    return super.visitMethod(method, unused);
                }

                @Override
                public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
                    TreePath at = getCurrentPath();
                    String written = call.getMethodSelect().toString();
                    long line = unit.getLineMap().getLineNumber(positions.getEndPosition(unit, call.getMethodSelect()));
                    Element target = trees.getElement(at);
                    boolean construction = written.equals("super") || written.equals("this");
                    if (target != null && target.asType().getKind() != javax.lang.model.type.TypeKind.ERROR) {
                        resolved.add(json(path, line));
                    }
                    MethodTree caller = outermost(at);
                    if (!construction && caller != null && target instanceof ExecutableElement) {
                        TreePath declared = trees.getPath(target);
                        String callerName = identity(trees.getElement(trees.getPath(unit, caller)));
                        String calleeName = identity(target);
                        if (declared != null && callerName != null && calleeName != null) {
                            CompilationUnitTree home = declared.getCompilationUnit();
                            String calleePath = root.relativize(Path.of(home.getSourceFile().toUri()).normalize()).toString();
                            pairs.add(json(path, callerName, calleePath, calleeName, path, line));
                        }
                    }
                    return super.visitMethodInvocation(call, unused);
                }
            }.scan(unit, null);
        }
        String out = "{\"files\": " + sources.size() + ", \"defined\": " + defined + ", \"pairs\": " + pairs
            + ", \"resolved\": " + resolved + "}";
        Files.writeString(Path.of(args[1]), out);
    }

    // The outermost method a path is in, whose class is a named class declared outside any method: Trident's
    // entities are the definitions outside any function.
    static MethodTree outermost(TreePath path) {
        MethodTree found = null;
        for (TreePath at = path; at != null; at = at.getParentPath()) {
            if (at.getLeaf() instanceof MethodTree method) {
                found = method;
            }
        }
        return found;
    }

    // Trident's name for a method: its class's simple name and its own (`Options.addOption`; a constructor is
    // `Options.Options`; a method of an enum constant's body is the enum's); null for a method of any other anonymous
    // or local class.
    static String identity(Element element) {
        if (!(element instanceof ExecutableElement method)) {
            return null;
        }
        Element owner = method.getEnclosingElement();
        if (owner instanceof TypeElement type && type.getNestingKind() == NestingKind.ANONYMOUS
            && type.getSuperclass() instanceof DeclaredType base && base.asElement().getKind() == ElementKind.ENUM) {
            owner = base.asElement();  // an enum constant's body: its methods are the enum's, as Trident names them
        }
        if (owner == null || owner.getSimpleName().isEmpty()) {
            return null;
        }
        String name = method.getKind() == ElementKind.CONSTRUCTOR ? owner.getSimpleName().toString()
            : method.getSimpleName().toString();
        return owner.getSimpleName() + "." + name;
    }

    static String json(Object... values) {
        List<String> parts = new ArrayList<>();
        for (Object value : values) {
            parts.add(value instanceof String text
                ? "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"" : String.valueOf(value));
        }
        return "[" + String.join(", ", parts) + "]";
    }
}
