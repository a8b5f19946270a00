"""A question that names one of the index's projects asks about that project: the other projects' hits among the
head follow its own (scaled, not dropped), unless the caller scoped the search, the index holds one project, or the
question names several or none."""

from __future__ import annotations

import pytest

from trident.retrieval.fusion import FusedItem
from trident.retrieval.named_project import OTHER_PROJECT_WEIGHT, named_first, named_project
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import search
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.schema import Chunk, DocumentKind

PROJECTS = ["auth", "billing", "storefront"]


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("Where does billing charge a card?", "billing"),
        ("how does Auth rotate its keys", "auth"),  # any case
        ("Where does billing call auth?", None),  # two: no one project asked about
        ("Where is a card charged?", None),
        ("billing-related docs", None),  # part of a longer word: not the name
    ],
)
def test_the_one_project_a_question_names(query: str, named: str | None) -> None:
    assert named_project(query, PROJECTS) == named
    assert named_project(query, ["billing"]) is None, "an index of one project has nothing to prefer"


def _chunk(chunk_id: str, project: str) -> Chunk:
    return Chunk(
        id=chunk_id,
        doc_id=f"{project}/f.py",
        project=project,
        path="f.py",
        text="x",
        start_line=1,
        end_line=1,
        kind=DocumentKind.CODE,
    )


def test_the_other_projects_hits_are_scaled_within_the_head_and_nothing_is_lost() -> None:
    items = [FusedItem("a1", 1.0), FusedItem("b1", 0.9), FusedItem("b2", 0.4), FusedItem("a2", 0.3)]
    chunks = {"a1": _chunk("a1", "auth"), "b1": _chunk("b1", "billing"), "b2": _chunk("b2", "billing")}
    chunks["a2"] = _chunk("a2", "auth")
    ranked = named_first(items, chunks, "billing", depth=3)
    assert [item.id for item in ranked] == ["b1", "a1", "b2", "a2"]  # a2 is past the head: as it was
    assert ranked[1].score == pytest.approx(1.0 * OTHER_PROJECT_WEIGHT)


def test_a_search_naming_a_project_answers_from_it_first(sample_catalog: Catalog) -> None:
    views = GenerationViews(RetrievalSettings())
    plain = search(sample_catalog, "where is the token checked before payment", top_k=10, views=views).hits
    assert len({hit.project for hit in plain[:5]}) > 1, "the words alone reach several projects"
    for project in PROJECTS:
        hits = search(sample_catalog, f"where is the token checked before payment in {project}", top_k=10, views=views)
        own = [i for i, hit in enumerate(hits.hits) if hit.project == project]
        others = [i for i, hit in enumerate(hits.hits) if hit.project != project]
        assert own and (not others or min(own) < min(others)), (project, [h.project for h in hits.hits])
    scoped = search(sample_catalog, "where is the token checked in billing", projects=["auth"], views=views).hits
    assert scoped and {hit.project for hit in scoped} == {"auth"}, "the caller's scope stands"
