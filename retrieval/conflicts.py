"""Conflicting facts among one result's hits: the same setting stated with values no unit reconciles, by two files.

Which kind of conflict a pair is, and which side to trust:
- two projects: `scope`, each value holds in its own project, none preferred;
- code or configuration against prose in one project: `factual`, the code or configuration preferred (it is what
  runs);
- two documents of one project: `temporal`, the one whose lines changed later preferred.
Two code files, or code and configuration, of one project are never paired: each module keeps its own constants,
and configuration exists to override a default. Statements in one file are never paired either (one file that gives
two values speaks of two things)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trident.retrieval.facts import Fact
from trident.retrieval.facts_values import disagree
from trident.retrieval.flags import ConflictFlag, ConflictType
from trident.retrieval.search_hits import SearchHit
from trident.retrieval.source_kinds import SourceKind

AUTHORITATIVE = frozenset({SourceKind.CODE, SourceKind.CONFIG})


@dataclass(frozen=True)
class Statement:
    hit: SearchHit
    fact: Fact


@dataclass
class Conflicts:
    found: set[tuple[str, ConflictType]]  # (key, type) of each conflict flagged
    corroborated: set[str]  # ids of hits another file agrees with on some setting


def flag_conflicts(statements: Sequence[Statement]) -> Conflicts:
    """Add a conflict flag to each hit whose statement of a setting another hit contradicts (one flag per setting
    and kind of conflict); note the hits another file agrees with."""
    by_key: dict[str, list[Statement]] = {}
    for statement in statements:
        by_key.setdefault(statement.fact.key, []).append(statement)
    result = Conflicts(set(), set())
    for key in sorted(by_key):
        group = by_key[key]
        for mine in group:
            others = [s for s in group if _different_files(mine.hit, s.hit)]
            if any(not disagree(mine.fact.value, s.fact.value) for s in others):
                result.corroborated.add(mine.hit.id)
            against = [s for s in others if disagree(mine.fact.value, s.fact.value)]
            for kind in ConflictType:
                partners = [s for s in against if pair_type(mine.hit, s.hit) is kind]
                if partners:
                    mine.hit.flags.append(_flag(key, kind, [mine, *partners]))
                    result.found.add((key, kind))
    return result


def _different_files(a: SearchHit, b: SearchHit) -> bool:
    return (a.project, a.path) != (b.project, b.path)


def pair_type(a: SearchHit, b: SearchHit) -> ConflictType | None:
    """The kind of conflict two hits' disagreeing statements make, or None when the pair is no conflict."""
    if a.project != b.project:
        return ConflictType.SCOPE
    a_runs, b_runs = a.source_kind in AUTHORITATIVE, b.source_kind in AUTHORITATIVE
    if a_runs != b_runs:
        return ConflictType.FACTUAL
    return None if a_runs else ConflictType.TEMPORAL


def _flag(key: str, kind: ConflictType, involved: list[Statement]) -> ConflictFlag:
    values = {s.hit.citation: s.fact.value.shown for s in sorted(involved, key=lambda s: s.hit.citation)}
    if kind is ConflictType.SCOPE:
        return ConflictFlag(type=kind, key=key, values=values, why="different projects: each value holds in its own")
    if kind is ConflictType.FACTUAL:
        trusted = [s for s in involved if s.hit.source_kind in AUTHORITATIVE]
        newest = _newest(trusted) or min(trusted, key=lambda s: s.hit.citation)
        source = "code" if newest.hit.source_kind is SourceKind.CODE else "configuration"
        return ConflictFlag(
            type=kind, key=key, values=values, preferred=newest.hit.citation, why=f"{source} over prose"
        )
    later = _newest(involved)
    if later is None:
        return ConflictFlag(type=kind, key=key, values=values, why="no later change tells them apart: check both")
    why = f"newer: changed {later.hit.last_modified}"
    return ConflictFlag(type=kind, key=key, values=values, preferred=later.hit.citation, why=why)


def _newest(statements: Sequence[Statement]) -> Statement | None:
    """The statement whose lines changed last; None when one's last change is not known, or the latest is shared."""
    if any(not s.hit.last_modified for s in statements):
        return None
    dated = sorted(statements, key=lambda s: s.hit.last_modified or "")
    if len(dated) > 1 and dated[-1].hit.last_modified == dated[-2].hit.last_modified:
        return None
    return dated[-1]
