"""What a file's path says about the code in it, read the same way by indexing and by the tools."""

from __future__ import annotations

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
