"""The names a code entity is imported by, per language, beside its qualified name.

An entity's qualified name is its file's module name (the path without extension, `/` as `.`) and its local name.
Code elsewhere names it as its language imports it:
- Python: the dotted path from the topmost folder of its package (folders with an `__init__.py`), so
  `src/httpx/_client.py` is imported as `httpx._client`.
- Go: a package is a folder, so `pkg/server/handler.go`'s `Server.Handle` is `pkg.server.Server.Handle`.
- JavaScript/TypeScript: `dir/x/index.ts` is what `./x` imports: `dir.x`.
- Rust: `dir/mod.rs`, `dir/lib.rs` and `dir/main.rs` are the module of their folder: `dir`.
- C# and PHP: the namespace a definition is declared in (`namespace App\\Log;`): `App.Log.Handler`.
- Java, C# and PHP: a file holds its class: `com/acme/Foo.java`'s class `Foo` is `com.acme.Foo` (PHP's PSR-4 and
  C#'s conventions name files and folders so too: `Log/Handler.php`'s `Handler` is `Log.Handler`, which
  `App.Log.Handler` ends with).
A file that heads a folder this way (a Python `__init__`, a JS `index`, a Rust `mod`/`lib`/`main`) can re-export
the folder's definitions; `heads_folder` says which.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from trident.store.names.code_paths import code_language, module_name
from trident.store.schema import Entity, EntityType

PACKAGE_FILES = ("__init__.py", "__init__.pyi")
_FOLDER_HEADS = {"javascript": {"index"}, "typescript": {"index"}, "tsx": {"index"}, "rust": {"mod", "lib", "main"}}
_FAMILIES = {"typescript": "javascript", "tsx": "javascript", "cpp": "c"}
_CLASS_FILES = frozenset({"java", "csharp", "php"})  # languages whose files are named after the class they hold
# languages whose code names a definition by its namespace (a package, in Kotlin and Scala)
_NAMESPACED = frozenset({"csharp", "php", "c", "cpp", "kotlin", "scala"})
# ... and by its own local name where it is in no namespace (C++'s global namespace: `Circle`, `Circle.area`)
_GLOBAL_NAMES = frozenset({"c", "cpp", "swift"})  # (C's `.h` may be a C++ header; a Swift module's names are global)
_TABLE_MODULES = frozenset({"lua"})  # a module table's `function M.f` is the module's `f` (what `require` returns)


def family(path: str) -> str:
    """The language a file's names live among (TypeScript imports JavaScript): "" for a file with no grammar."""
    language = code_language(path) or ""
    return _FAMILIES.get(language, language)


def heads_folder(path: str) -> bool:
    """Whether the file is its folder's module, importable by the folder's name and re-exporting from it."""
    stem = posixpath.splitext(posixpath.basename(path))[0]
    if posixpath.basename(path) in PACKAGE_FILES:
        return True
    return stem in _FOLDER_HEADS.get(code_language(path) or "", set())


class ImportNames:
    """(project, path) -> the module name a file is imported by, from the Python packages of every project."""

    def __init__(self, modules: Iterable[Entity]) -> None:
        self.packages = frozenset(  # (project, folder) of each Python package
            (m.project, posixpath.dirname(m.path or ""))
            for m in modules
            if m.type == EntityType.MODULE.value and posixpath.basename(m.path or "") in PACKAGE_FILES
        )

    def of(self, entity: Entity) -> list[str]:
        """The names `entity` is imported by other than its qualified name (none when it has no other)."""
        path = entity.path or ""
        module_q = module_name(path)
        if not entity.qualified_name.startswith(module_q):
            return []
        local = entity.qualified_name[len(module_q) :]  # "" or ".Class.method"
        folder = posixpath.dirname(path).replace("/", ".")
        language = code_language(path) or ("python" if path.endswith(".pyi") else "")
        if language == "python":
            return _other(entity.qualified_name, self.python_module(entity.project, path) + local)
        if language == "go" or (language != "java" and heads_folder(path)):
            return _other(entity.qualified_name, _join(folder, local[1:])) if local or folder else []
        stem = posixpath.splitext(posixpath.basename(path))[0]
        found = []
        if language in _CLASS_FILES and local.split(".")[1:2] == [stem]:
            found = _other(entity.qualified_name, _join(folder, local[1:]))
        if language in _NAMESPACED and local:  # the outline's alias of a namespaced definition: `Acme.Billing.Order`
            found += [a for a in entity.aliases if a.endswith(local) and a != local[1:] and "/" not in a]
        if language in _GLOBAL_NAMES and local and not found:
            found = [local[1:]]
        if language in _TABLE_MODULES and local.count(".") == 2:  # ".M.sum"
            found.append(f"{module_q}.{local.rsplit('.', 1)[1]}")
        return found

    def python_module(self, project: str, path: str) -> str:
        """The module a Python file is imported by (`src/httpx/_client.py`: `httpx._client`)."""
        root = posixpath.dirname(path)
        while root and (project, root) in self.packages:
            root = posixpath.dirname(root)
        return module_name(path[len(root) + 1 :] if root else path)


def _join(folder: str, local: str) -> str:
    return f"{folder}.{local}" if folder and local else folder or local


def _other(qualified: str, name: str) -> list[str]:
    return [name] if name and name != qualified else []
