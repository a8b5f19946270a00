"""Where an index run's files are parsed: in this process (`LocalParser`), or as Ray tasks on a cluster
(`ingest/ray_parser.py`). Either way the parsed documents come back in the order of the files given, and each is
exactly what `parse_file` makes of that file."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

from trident.ingest.documents import Parsed, parse_file
from trident.ingest.walker import SourceFile


class Parser(Protocol):
    def parse(self, project: str, sources: Sequence[SourceFile], tenant: str) -> Iterator[Parsed]:
        """Each file parsed, in the order given (yielded as they come, so a caller can count progress)."""
        ...


class LocalParser:
    """Parses in this process, one file after another."""

    def parse(self, project: str, sources: Sequence[SourceFile], tenant: str) -> Iterator[Parsed]:
        for source in sources:
            yield parse_file(project, source, tenant)
