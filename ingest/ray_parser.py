"""Parsing on a Ray cluster (#18): the files of a large index run are sent, text and all, in groups to Ray tasks,
so the workers need no access to the folder; each task runs `parse_file` on its group and the documents come back
in the files' order, the same objects a local parse makes (`tests/test_ray_indexing.py` compares them).

The tasks ask Ray for no CPU: the embedding actors of the same run (`embedding/ray_embedder.py`) hold one CPU each
for the run's whole length, and parsing happens before they embed anything, so tasks that waited for a free CPU
would wait for ever. Instead at most `TRIDENT_RAY_WORKERS` tasks are in flight at a time. A run with few files to
parse (a watched edit) parses here: sending them would cost more than it saves.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

from trident.host.ray_cluster import ClusterSettings, ClusterUnavailable, connect_ray
from trident.ingest.documents import Parsed, parse_file
from trident.ingest.parsing import LocalParser
from trident.ingest.walker import SourceFile

log = logging.getLogger(__name__)

# A task's group: files up to this many characters of text (at least one file), so a task is worth sending.
GROUP_CHARS = 200_000
# Fewer files than this are parsed here.
MIN_FILES = 8
# How long one group may take on a worker (a few seconds on a CPU; the bound only ends a cluster that stopped).
GROUP_TIMEOUT_S = 300.0


class GroupParseError(RuntimeError):
    """A file of a group could not be parsed on a worker (the message names it)."""


def parse_group(project: str, sources: list[SourceFile], tenant: str) -> list[Parsed]:
    """What a Ray task runs: each file of the group parsed, in order.

    Raises:
        GroupParseError: a file could not be parsed; the message names it and says why.
    """
    parsed: list[Parsed] = []
    for source in sources:
        try:
            parsed.append(parse_file(project, source, tenant))
        except Exception as exc:
            raise GroupParseError(f"{source.rel}: {type(exc).__name__}: {exc}") from exc
    return parsed


def groups_of(sources: Sequence[SourceFile], chars: int = GROUP_CHARS) -> list[list[SourceFile]]:
    """The files cut, in order, into groups of about `chars` characters of text (a larger file alone)."""
    groups: list[list[SourceFile]] = []
    size = 0
    for source in sources:
        if not groups or (size + len(source.text) > chars and groups[-1]):
            groups.append([])
            size = 0
        groups[-1].append(source)
        size += len(source.text)
    return groups


class RayParser:
    """Parses large runs as Ray tasks on the cluster of `cluster.ray_address`, at most `cluster.ray_workers` at a
    time; small ones here."""

    def __init__(self, cluster: ClusterSettings, *, group_chars: int = GROUP_CHARS) -> None:
        """
        Raises:
            ClusterUnavailable: ray is not installed, or the cluster does not answer.
        """
        self._ray = connect_ray(cluster)
        self._in_flight = cluster.ray_workers
        self._group_chars = group_chars
        self._task = self._ray.remote(num_cpus=0, max_retries=1)(parse_group)
        self._local = LocalParser()
        log.info("parsing on Ray at %s, %d tasks at a time", cluster.ray_address, self._in_flight)

    def parse(self, project: str, sources: Sequence[SourceFile], tenant: str) -> Iterator[Parsed]:
        """
        Raises:
            ClusterUnavailable: a task failed, or did not come back within GROUP_TIMEOUT_S (the run stops
                unpublished; the groups still in flight, fewer than TRIDENT_RAY_WORKERS, end on their workers and
                their results are dropped: Ray aborts a driver that cancels a task while its result comes back,
                ray-project/ray#54846, so they are not cancelled).
        """
        if len(sources) < MIN_FILES:
            yield from self._local.parse(project, sources, tenant)
            return
        waiting = deque(groups_of(sources, self._group_chars))
        pending: deque[tuple[Any, list[SourceFile]]] = deque()
        while waiting or pending:
            while waiting and len(pending) < self._in_flight:
                group = waiting.popleft()
                pending.append((self._task.remote(project, group, tenant), group))
            ref, group = pending.popleft()
            yield from self._result(ref, group)

    def _result(self, ref: Any, group: list[SourceFile]) -> list[Parsed]:
        files = f"{len(group)} files ({group[0].rel}{' …' if len(group) > 1 else ''})"
        again = "the run is not published: run it again (or unset TRIDENT_RAY_ADDRESS to index on this machine alone)"
        try:
            parsed: list[Parsed] = self._ray.get(ref, timeout=GROUP_TIMEOUT_S)
        except self._ray.exceptions.GetTimeoutError as exc:
            raise ClusterUnavailable(
                f"a Ray task did not parse its {files} within {GROUP_TIMEOUT_S:g} s; {again}"
            ) from exc
        except self._ray.exceptions.RayError as exc:  # the parse raised on the worker, or the worker died
            cause = getattr(exc, "cause", None)  # a task's own exception, without the worker's traceback
            reason = cause if isinstance(cause, GroupParseError) else exc
            raise ClusterUnavailable(f"a Ray task failed parsing {files}: {reason}; {again}") from exc
        return parsed
