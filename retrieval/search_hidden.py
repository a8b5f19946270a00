"""What an empty search's narrowing arguments hid, counted from what the search has, never by searching again: the
runs it made (what some paths found and intersection fusion dropped), the index's chunks per project (the dense path
ranks every chunk of a project it may search), the lexical index's count of the chunks matching the query's words in
each project, and the entities the query names (where a graph path starts).

- `projects`: the candidates the planned paths have in the other projects, per project.
- `strategy`: the candidates in the caller's projects of the paths `strategy='auto'` runs and the forced one did not.
- `fusion='intersection'`: the candidates some of the runs found but not all.
The search tool adds the call that shows each (tools/search_omitted.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from trident.retrieval.fusion import FusionMethod
from trident.retrieval.omitted import OmitReason, Omitted, breakdown
from trident.retrieval.path_names import PathName
from trident.retrieval.paths import query_entities
from trident.retrieval.search_plan import SearchPlan, Strategy
from trident.retrieval.search_request import SearchRequest
from trident.retrieval.search_runs import PathRuns
from trident.store.catalog import Catalog
from trident.store.names.directory import EntityDirectory

_RANKED = "ranked"
# What each path ranks, in words, for the detail of an entry.
_RANKS: dict[str, str] = {
    _RANKED: "ranked by the search",
    PathName.LEXICAL: "matching the query's words",
    PathName.SEMANTIC: "the dense path ranks by meaning",
    PathName.PPR: "of the entities the query names",
    PathName.GRAPH: "of the entities the query names",
}


def hidden(
    catalog: Catalog,
    directory: EntityDirectory | None,
    request: SearchRequest,
    plan: SearchPlan,
    runs: PathRuns,
    ranked_elsewhere: Counter[str],
) -> list[Omitted]:
    """One entry per narrowing argument of an empty search that hid candidates (none for one that hid nothing);
    `ranked_elsewhere`: the ranking's candidates the project filter left out, by project (a walk's, which is not
    filtered before it ranks)."""
    omitted: list[Omitted] = []
    counter = _Candidates(catalog, directory, plan.texts)
    if request.projects is not None:
        others = [p for p in catalog.manifest.projects() if p not in request.projects]
        counted: dict[str, Counter[str]] = counter.count(plan.paths, others)
        if ranked_elsewhere:
            counted[_RANKED] = ranked_elsewhere
        omitted.extend(_entry(OmitReason.PROJECTS, counted, "in other projects"))
    if request.strategy is not Strategy.AUTO:
        left_out = [path for path in plan.routed.strategies if path not in plan.paths]
        scope = request.projects if request.projects is not None else catalog.manifest.projects()
        where = "in the paths strategy='auto' runs" + (f" ({', '.join(left_out)})" if left_out else "")
        omitted.extend(_entry(OmitReason.STRATEGY, counter.count(left_out, scope), where))
    if request.fusion is FusionMethod.INTERSECTION:
        some = _found_by_some(runs)
        if some:
            detail = f"{some} candidate(s) found by some of the paths but not all"
            omitted.append(Omitted(reason=OmitReason.FUSION, count=some, detail=detail))
    return omitted


def _entry(reason: OmitReason, counted: dict[str, Counter[str]], where: str) -> list[Omitted]:
    """An entry for the candidates the paths have by project: as many as the path with most has in each."""
    by_project: Counter[str] = Counter()
    for counts in counted.values():
        for project, n in counts.items():
            by_project[project] = max(by_project[project], n)
    total = sum(by_project.values())
    if not total:
        return []
    paths = "; ".join(f"{sum(c.values())} {_RANKS[path]}" for path, c in counted.items() if sum(c.values()))
    detail = f"{total} candidate(s) {where} ({breakdown(by_project)}): {paths}"
    return [Omitted(reason=reason, count=total, detail=detail)]


def _found_by_some(runs: PathRuns) -> int:
    """How many chunks some of the finished runs found and not every run that found any did (as intersection fusion
    leaves out a run that found nothing)."""
    found = [ids for run in runs.finished() if (ids := {hit.id for hit in runs.results[run].hits})]
    if len(found) < 2:
        return 0
    return len(found[0].union(*found[1:]) - found[0].intersection(*found[1:]))


class _Candidates:
    """The chunks each path may rank in given projects, counted from the index's own counts."""

    def __init__(self, catalog: Catalog, directory: EntityDirectory | None, texts: Sequence[str]) -> None:
        self.catalog, self.directory, self.texts = catalog, directory, texts

    def count(self, paths: Collection[PathName], projects: Sequence[str]) -> dict[str, Counter[str]]:
        counted: dict[str, Counter[str]] = {}
        for path in sorted(set(paths) & _RANKS.keys()):
            counted[path] = self._of(path, projects) if projects else Counter()
        return counted

    def _of(self, path: PathName, projects: Sequence[str]) -> Counter[str]:
        tenant = self.catalog.tenant
        if path is PathName.LEXICAL:  # the most any one text matches in each project
            counts: Counter[str] = Counter()
            for text in self.texts:
                for project, n in self.catalog.text.matches(text, tenant, projects).items():
                    counts[project] = max(counts[project], n)
            return counts
        if path is PathName.SEMANTIC:
            by_project = self.catalog.manifest.documents_by_project()
            chunks = {p: sum(len(e.chunk_ids) for e in by_project.get(p, {}).values()) for p in projects}
            return Counter({p: n for p, n in chunks.items() if n})
        if self.directory is None:  # (still being built: the walk's paths answer without it)
            return Counter()
        named = {e.id: e for text in self.texts for e in query_entities(self.directory, text) if e.chunk_id}
        return Counter(e.project for e in named.values() if e.project in projects)
