"""`trident remove`: a project, or one file of it, out of all three engines, through the function the MCP tool
`remove` calls (references other files made into what goes wait as pending, to bind when it is indexed again)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from trident.cli.user_errors import NotIndexed, unknown_project
from trident.ingest.rebinding import remove_documents
from trident.store.catalog import Writer

FILES_NAMED = 3  # files an unknown path's message suggests


@dataclass(frozen=True)
class Removed:
    documents: int
    rebound: int  # documents of other files whose references were bound again

    def __str__(self) -> str:
        return f"{self.documents} document(s); the references of {self.rebound} other(s) into it were bound again"


def remove_from_index(writer: Writer, project: str, path: str | None, max_file_bytes: int) -> Removed:
    """Remove `project` (or only its file `path`, project-relative) in the block of `writer`, reading the manifest
    under its lock so a run that published meanwhile is removed too.

    Raises:
        NotIndexed: no such project, or no such file in it.
    """
    documents = writer.manifest.project_documents(project)
    if not documents:
        raise unknown_project(project, writer.manifest.projects())
    if path is not None:
        path = _in_project(path, project, {entry.path for entry in documents.values()})
    doc_ids = [doc_id for doc_id, entry in documents.items() if path is None or entry.path == path]
    return Removed(len(doc_ids), remove_documents(writer, doc_ids, max_file_bytes))


def _in_project(path: str, project: str, paths: set[str]) -> str:
    """`path` as the project holds it: project-relative, or as a citation gives it (`project/path`).

    Raises:
        NotIndexed: the project holds no such file; the message names the files most like it.
    """
    for candidate in (path, path.removeprefix(f"{project}/")):
        if candidate in paths:
            return candidate
    ordered = sorted(paths)
    near = difflib.get_close_matches(path, ordered, n=FILES_NAMED, cutoff=0.4) or ordered[:FILES_NAMED]
    raise NotIndexed(
        f"no file '{path}' in project '{project}' (its {len(ordered)} files, relative to the project, include "
        f"{', '.join(near)})"
    )
