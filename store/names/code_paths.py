"""What a file's path says about the code in it, read the same way by indexing and by the tools."""

from __future__ import annotations

import functools
import posixpath


def is_test_path(path: str) -> bool:
    """Test code by common conventions: a `tests`/`test`/`testing`/`__tests__` folder, `test_*.py`, `*_test.py`,
    `conftest.py`, `*_test.go`, `*.test.ts`/`*.spec.js`, `*Test.java`."""
    *folders, name = path.split("/")
    stem = posixpath.splitext(name)[0]
    return (
        any(f in ("tests", "test", "testing", "__tests__") for f in folders)
        or name.startswith("test_")
        or stem.endswith(("_test", ".test", ".spec", "Test", "Tests"))
        or name == "conftest.py"
    )


# Folders of code that shows the library in use rather than being it (benchmarks too).
EXAMPLE_FOLDERS = frozenset({"example", "examples", "demo", "demos", "sample", "samples", "benchmarks", "bench"})


def is_example_path(path: str) -> bool:
    """Example, demo, sample or benchmark code, by a folder of its path (`docs/examples/cache_extension.py`)."""
    return any(folder.lower() in EXAMPLE_FOLDERS for folder in path.split("/")[:-1])


DOCS_FOLDERS = frozenset({"doc", "docs", "documentation"})


def is_set_apart(path: str) -> bool:
    """Code that is not the library's own: tests, examples, and code kept with the documentation (its build's
    `conf.py`, a page's script: `doc/_static/demo.js`)."""
    folders = path.split("/")[:-1]
    return is_test_path(path) or is_example_path(path) or any(f.lower() in DOCS_FOLDERS for f in folders)


# Headers keep their suffix in their module's name: `buf.h` and `buf.c` are two files of one name.
HEADER_SUFFIXES = frozenset({".h", ".hpp", ".hh", ".hxx"})


def module_name(path: str) -> str:
    """`billing/orders.py` -> `billing.orders`; a package's `__init__.py` names the package; a header keeps its
    suffix (`src/buf.h` -> `src.buf.h`, beside `src/buf.c`'s `src.buf`)."""
    root, suffix = posixpath.splitext(path)
    if root.endswith("/__init__"):
        root = root[: -len("/__init__")]
    if suffix.lower() in HEADER_SUFFIXES:
        root += suffix
    return root.replace("/", ".")


def module_short_name(path: str) -> str:
    """The name a module goes by: the last part of its qualified name (`orders`), a header's file name (`buf.h`)."""
    qualified = module_name(path)
    if posixpath.splitext(path)[1].lower() in HEADER_SUFFIXES:
        return posixpath.basename(path)
    return qualified.rsplit(".", 1)[-1]


CODE_LANGUAGES = {
    ".py": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".cs": "csharp",
    ".php": "php",
    ".rb": "ruby",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".hpp": "cpp",
    ".hh": "cpp",
    ".hxx": "cpp",
    ".lua": "lua",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".swift": "swift",
    ".scala": "scala",
    ".sc": "scala",
    ".sh": "bash",
    ".bash": "bash",
}
# Source files of languages without a grammar here: chunked as text, still code, their calls not bound.
TEXT_ONLY_CODE = tuple(
    suffix
    for suffix in (
        *(".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".m", ".mm", ".swift", ".dart"),
        *(".kt", ".kts", ".scala", ".groovy", ".gradle", ".clj", ".hs", ".ml", ".ex", ".exs", ".erl"),
        *(".pl", ".pm", ".lua", ".r", ".sql", ".proto", ".graphql", ".tf", ".vue", ".svelte"),
        *(".sh", ".bash", ".zsh", ".fish", ".ps1"),
    )
    if suffix not in CODE_LANGUAGES
)


@functools.cache  # asked again for every entity of a file, every run
def code_language(path: str) -> str | None:
    """The grammar a source file is parsed with (`src/app.ts` -> typescript), None for any other file."""
    return CODE_LANGUAGES.get(posixpath.splitext(path)[1].lower())
