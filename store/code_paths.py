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


def module_name(path: str) -> str:
    """`billing/orders.py` -> `billing.orders`; a package's `__init__.py` names the package."""
    root, _ = posixpath.splitext(path)
    if root.endswith("/__init__"):
        root = root[: -len("/__init__")]
    return root.replace("/", ".")


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
}


@functools.cache  # asked again for every entity of a file, every run
def code_language(path: str) -> str | None:
    """The grammar a source file is parsed with (`src/app.ts` -> typescript), None for any other file."""
    return CODE_LANGUAGES.get(posixpath.splitext(path)[1].lower())
