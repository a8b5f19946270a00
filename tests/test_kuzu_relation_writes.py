"""Relations written to the graph merge by (source, type, target, evidence): a key written again updates the one
edge instead of adding another, the last of several rows of one key wins, a row whose end does not exist is left
out, and the file read afresh holds exactly what the writing store holds in memory (new rows are copied in, those
already there merged). A file written before relations carried a receiver reads as one whose receivers are ""."""

from __future__ import annotations

from pathlib import Path

import kuzu

from trident.store.engines.kuzu_graph import KuzuGraphStore
from trident.store.schema import NON_VIRTUAL, Entity, Relation, Resolution

TENANT = "default"


def entity(name: str) -> Entity:
    return Entity(id=f"function:p:{name}", name=name, type="Function", project="p", qualified_name=name, doc_id="p/a")


def relation(source: str, target: str, evidence: str, weight: float = 1.0, **fields: object) -> Relation:
    return Relation(
        source=f"function:p:{source}",
        type=str(fields.pop("type", "CALLS")),
        target=f"function:p:{target}",
        evidence=evidence,
        weight=weight,
        project="p",
        doc_id="p/a",
        **fields,  # type: ignore[arg-type]
    )


def read_afresh(path: Path) -> list[Relation]:
    store = KuzuGraphStore(path, read_only=True)
    try:
        return store.relations(TENANT)
    finally:
        store.close()


def test_relations_written_again_update_their_edge_and_the_file_holds_what_memory_does(tmp_path: Path) -> None:
    path = tmp_path / "graph.kuzu"
    store = KuzuGraphStore(path)
    try:
        store.upsert([], [entity(n) for n in ("charge", "refund", "settle")], [])
        assert store.relations(TENANT) == []  # read once: held from here on
        store.upsert(
            [],
            [],
            [
                relation("charge", "refund", "c1", weight=0.5),
                relation("charge", "refund", "c1", weight=2.0),  # the same key again: the last row wins
                relation("charge", "settle", "c1", receiver=NON_VIRTUAL),
                relation("charge", "missing", "c1"),  # no such entity: left out
                relation("refund", "settle", "c2", type="MENTIONS"),
            ],
        )
        store.upsert(
            [],
            [],
            [
                relation("charge", "refund", "c1", weight=3.0, resolution=Resolution.INFERRED),  # there: updated
                relation("charge", "refund", "c2"),  # another evidence: a second edge
                relation("settle", "charge", "c3"),  # new
            ],
        )
        held = store.relations(TENANT)
    finally:
        store.close()
    expected = sorted(
        [
            relation("charge", "refund", "c1", weight=3.0, resolution=Resolution.INFERRED),
            relation("charge", "refund", "c2"),
            relation("charge", "settle", "c1", receiver=NON_VIRTUAL),
            relation("refund", "settle", "c2", type="MENTIONS"),
            relation("settle", "charge", "c3"),
        ],
        key=lambda r: (r.source, r.type, r.target, r.evidence),
    )
    assert held == expected
    assert read_afresh(path) == expected


def test_many_relations_written_at_once_are_each_one_edge(tmp_path: Path) -> None:
    """More rows than one write batch, half of them already in the file: every key is one edge, with its fields."""
    path = tmp_path / "graph.kuzu"
    names = [f"f{i}" for i in range(60)]
    pairs = [(a, b) for a in names for b in names if a != b][:2_500]
    store = KuzuGraphStore(path)
    try:
        store.upsert([], [entity(n) for n in names], [relation(a, b, "c1") for a, b in pairs[::2]])
        store.upsert([], [], [relation(a, b, "c1", weight=0.25, receiver="class:p:K") for a, b in pairs])
    finally:
        store.close()
    found = read_afresh(path)
    assert len(found) == len(pairs)
    assert {(r.source, r.target) for r in found} == {(f"function:p:{a}", f"function:p:{b}") for a, b in pairs}
    assert {r.weight for r in found} == {0.25}
    assert {r.receiver for r in found} == {"class:p:K"}


# The relation table as an index written before relations carried a receiver declares it
OLD_RELATES = (
    "CREATE REL TABLE RELATES(FROM Entity TO Entity, type STRING, weight DOUBLE, evidence STRING, project STRING,"
    " doc_id STRING, resolution STRING)"
)


def test_a_file_written_before_receivers_reads_with_none_and_takes_them_when_written(tmp_path: Path) -> None:
    path = tmp_path / "graph.kuzu"
    store = KuzuGraphStore(path)
    try:
        store.upsert([], [entity(n) for n in ("charge", "refund")], [])
    finally:
        store.close()
    database = kuzu.Database(str(path))  # the relation table dropped and declared as it was
    connection = kuzu.Connection(database)
    connection.execute("DROP TABLE RELATES")
    connection.execute(OLD_RELATES)
    connection.execute(
        "MATCH (a:Entity {id: 'function:p:charge'}), (b:Entity {id: 'function:p:refund'})"
        " CREATE (a)-[:RELATES {type: 'CALLS', weight: 1.0, evidence: 'c1', project: 'p', doc_id: 'p/a',"
        " resolution: 'exact'}]->(b)"
    )
    connection.close()
    database.close()
    published = KuzuGraphStore(path, read_only=True)  # a generation published then, read by this version
    try:
        assert published.relations(TENANT) == [relation("charge", "refund", "c1")]
        assert published.relation_table(TENANT)["receiver"].to_pylist() == [""]
    finally:
        published.close()
    store = KuzuGraphStore(path)  # written again: the table takes the column
    try:
        store.upsert([], [], [relation("refund", "charge", "c2", receiver=NON_VIRTUAL)])
    finally:
        store.close()
    assert read_afresh(path) == [relation("charge", "refund", "c1"), relation("refund", "charge", "c2", receiver="=")]
