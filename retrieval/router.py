"""Deterministic query routing: a table of regex rules picks a query type; a preset per type makes the plan."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from trident.retrieval.fusion import FusionMethod
from trident.retrieval.path_names import PathName


class QueryType(StrEnum):
    ENTITY_LOOKUP = "entity_lookup"
    RELATIONSHIP = "relationship"
    MULTI_HOP = "multi_hop"
    SIMILARITY = "similarity"
    PATTERN = "pattern"
    CROSS_PROJECT = "cross_project"
    LOCAL_ONLY = "local_only"
    OVERVIEW = "overview"
    GENERAL = "general"


# When several types fire, the first in this list wins.
PRECEDENCE = (
    QueryType.LOCAL_ONLY,
    QueryType.SIMILARITY,
    QueryType.MULTI_HOP,
    QueryType.CROSS_PROJECT,
    QueryType.RELATIONSHIP,
    QueryType.OVERVIEW,
    QueryType.PATTERN,
    QueryType.ENTITY_LOOKUP,
    QueryType.GENERAL,
)


@dataclass(frozen=True)
class Rule:
    name: str
    query_type: QueryType
    pattern: re.Pattern[str]


def _rule(name: str, query_type: QueryType, pattern: str, flags: int = re.IGNORECASE) -> Rule:
    return Rule(name, query_type, re.compile(pattern, flags))


_REL_VERB = (
    r"(?:call(?:s|ed|ing)?|uses?|used|using|depends? on|depend(?:s|ed)?|imports?|imported|inherits?|"
    r"extend(?:s|ed|ing)?|implement(?:s|ed|ing)?|owns?|owned|blocks?|blocked|links? to|linked|references?|"
    r"wraps|invokes?|triggers?|reads?|writes?|written|consumes?|produces?|publish(?:es|ed)|subscribes? to|"
    r"covers?|covered)"
)

RULES: tuple[Rule, ...] = (
    _rule(
        "instruction-file",
        QueryType.LOCAL_ONLY,
        r"\b(?:claude\.md|agents\.md|readme(?:\.md)?|contributing(?:\.md| guide)?|codeowners|"
        r"our (?:own )?(?:docs|documentation|instructions|guidelines|readme)|this (?:repo|project|codebase)'s "
        r"(?:docs|instructions|rules|guidelines|readme)|project instructions|instructions? file|"
        r"(?:agent|contributor) instructions|house rules for this repo)\b",
    ),
    _rule(
        "similar-phrase",
        QueryType.SIMILARITY,
        r"\b(?:similar(?:ly)? to|similar|like this|like the following|looks? like (?:this|that|these|the following)|"
        r"(?:that|which) looks? like|resembl\w*|examples? of|"
        r"analogous|same shape as|more like|others like|code like|near[- ]duplicates?|lookalikes?)\b",
    ),
    _rule(
        "pasted-code",
        QueryType.SIMILARITY,
        r"(?:\n\s*(?:def |class |function |func |fn |public |return |if |for |const |let |import |from )|"
        r"Traceback \(most recent call last\)|^\s*at [\w.$<>]+\([\w.]+:\d+\)|Exception in thread|panic: |"
        r"\w+Error: .+\n)",
        re.MULTILINE,
    ),
    _rule(
        "relation-chain",
        QueryType.MULTI_HOP,
        rf"\b{_REL_VERB}\b.*\b(?:that|which|who|whose)\b(?: \w+)? (?:is \w+ by|\w+s|\w+ed)\b|"
        rf"\b(?:that|which|who|whose)\b.*\b{_REL_VERB}\b.*\b(?:that|which|who|whose)\b.*\b{_REL_VERB}\b",
    ),
    _rule("of-the-chain", QueryType.MULTI_HOP, r"\b(?:the )?\w+(?: \w+)? of the \w+(?: \w+)? (?:of|who|that|which)\b"),
    _rule(
        "two-hop-words",
        QueryType.MULTI_HOP,
        r"\b(?:indirectly|transitively|two hops?|2 hops?|chain of|through which|via the|by way of|"
        r"in turn|end[- ]to[- ]end path|all the way (?:to|from))\b",
    ),
    _rule(
        "comparison-of-facts",
        QueryType.MULTI_HOP,
        r"\b(?:which|who)\b.*\b(?:first|earlier|later|older|younger|longer|born first|died first|"
        r"came out first|released first)\b.*\b(?:or|and)\b",
    ),
    _rule(
        "other-teams",
        QueryType.CROSS_PROJECT,
        r"\b(?:other|another|different|all|every|each|across|multiple|several|sibling|neighbou?ring|the other)"
        r" (?:projects?|teams?|services?|repos?|repositories|codebases?|squads?|products?|microservices?)\b|"
        r"\b(?:which|what) (?:projects?|teams?|services?|repos?|repositories|codebases?)\b|"
        r"\b(?:organi[sz]ation(?:-wide)?|org-wide|company-wide|across the (?:org|company)|cross[- ]"
        r"(?:project|team|repo|service)|elsewhere in the (?:org|company)|monorepo-wide)\b",
    ),
    _rule(
        "compare-named",
        QueryType.CROSS_PROJECT,
        r"\b(?:compare|comparison of|contrast|differences? between)\b.*\b(?:and|with|to|vs\.?|versus)\b|"
        r"\b\w+ (?:vs\.?|versus) \w+|\b(?:differs?|different|differently) (?:from|than)\b",
    ),
    _rule(
        "relation-word",
        QueryType.RELATIONSHIP,
        rf"\b(?:what|who|which|where|how)\b.*\b{_REL_VERB}\b|\b(?:callers?|callees?|dependen(?:ts|cies|cy)|"
        r"upstream|downstream|consumers? of|clients? of|users? of|importers? of|subclass(?:es)? of|"
        r"connect(?:s|ed|ion)?|relat(?:e|es|ed|ion|ionship)s? (?:to|between|with)|interacts? with|"
        r"talks? to|traces? of|wired (?:to|up)|hooked up)\b",
    ),
    _rule(
        "broad-summary",
        QueryType.OVERVIEW,
        r"\b(?:overview|summary|summari[sz]e|landscape|big picture|high[- ]level|architecture|tour of|"
        r"bird'?s[- ]eye|outline|main (?:parts|components|modules|areas|pieces)|map of|lay of the land|"
        r"walk me through (?:the|how)|what does the \w+ (?:system|subsystem|codebase|area) (?:look like|do))\b",
    ),
    _rule(
        "how-we-do",
        QueryType.PATTERN,
        r"\b(?:how (?:do|does|should|would|did|are) (?:we|you|i|one|they|people|teams?|folks) "
        r"(?:here |around here |in this (?:codebase|repo) )?(?:usually |"
        r"typically |normally |generally |commonly )?(?:handle|do|write|implement|structure|organi[sz]e|test|"
        r"deal with|approach|name|log|validate|configure|manage|retry|version|document|deploy)|conventions?|"
        r"best practices?|common (?:approach|pattern|way|practice)s?|idiomatic|(?:usual|standard|typical|"
        r"recommended|preferred|accepted) (?:way|approach|pattern|practice)|usually (?:done|handled)|"
        r"style guide|rule of thumb|patterns? (?:for|of|used|we use))\b",
    ),
    _rule(
        "what-is",
        QueryType.ENTITY_LOOKUP,
        r"^\s*(?:what(?: is|'s| are| does)|where(?: is|'s| are| does)|who is|describe|define|definition of|"
        r"tell me about|explain(?: what)?|show me|find|look up|locate|details (?:of|on|about)|info on|"
        r"signature of|docstring of|purpose of|meaning of)\b",
    ),
    _rule("defined-where", QueryType.ENTITY_LOOKUP, r"\b(?:defined|declared|implemented|located|lives?)\b\s*\??$"),
    _rule(
        "id-reference",
        QueryType.ENTITY_LOOKUP,
        r"\b(?i:plan|adr|rfc|ticket|issue|bug|pr|incident|spec|story|epic|decision)[\s#-]*\d+\b|"
        r"(?:^|\s)#\d+\b|\b[A-Z][A-Z0-9]+-\d+\b",
        0,
    ),
    _rule(
        "bare-identifier",
        QueryType.ENTITY_LOOKUP,
        r"^\s*`?[A-Za-z_][\w]*(?:(?:\.|::)[A-Za-z_][\w]*)*(?:\(\))?`?\s*\??\s*$",
        0,
    ),
)


class Plan(BaseModel):
    """How to answer one query: its type, which paths to run and how to weigh them, and why."""

    model_config = ConfigDict(frozen=True)

    query_type: QueryType
    weights: dict[PathName, float]
    strategies: tuple[PathName, ...]
    graph_scopes_vector: bool = False
    fusion: FusionMethod = FusionMethod.WEIGHTED_SUM
    primary: PathName | None = None
    primary_depth: int = 5
    primary_reorders: bool = False
    seed_by_vectors: bool = False
    rules_fired: tuple[str, ...] = ()

    def __str__(self) -> str:
        weights = ", ".join(f"{k}={v:g}" for k, v in self.weights.items())
        lead = f", {self.primary} leads" if self.primary else ""
        return f"{self.query_type.value} [{weights}{lead}] via {'+'.join(self.strategies)}"


@dataclass(frozen=True)
class Preset:
    weights: dict[PathName, float]
    strategies: tuple[PathName, ...]
    # Weighted sum of min-max normalised scores beat RRF k=60 on SciFact train (nDCG@10 0.733 vs 0.723) and on
    # CoSQA dev (MRR@10 0.488 vs 0.462): it keeps how far ahead a path's top hit is, which RRF's ranks discard.
    fusion: FusionMethod = FusionMethod.WEIGHTED_SUM
    graph_scopes_vector: bool = False
    # The path that is precise at the top for this type: its head leads the fused list (see fusion.PrimaryFirst).
    # The graph path only answers when the query names an indexed entity, and then its first hits are that
    # entity's definition and the evidence of its relations.
    primary: PathName | None = None
    primary_depth: int = 5
    primary_reorders: bool = False
    # When the query names no entity exactly, seed the walk from the entities and relation sentences nearest its
    # meaning (entity lookups and relationship questions are about things, even when named loosely).
    seed_by_vectors: bool = False


_HYBRID = (PathName.LEXICAL, PathName.SEMANTIC, PathName.GRAPH)
# Questions about named things walk the graph (Personalized PageRank from the entities they name) instead of
# taking one hop: the walk's first hits are the same (the entities' own chunks), the rest ranked by structure.
_WALK = (PathName.LEXICAL, PathName.SEMANTIC, PathName.PPR)
PRESETS: dict[QueryType, Preset] = {
    QueryType.ENTITY_LOOKUP: Preset(
        {PathName.LEXICAL: 1.0, PathName.SEMANTIC: 0.6, PathName.PPR: 1.0},
        _WALK,
        primary=PathName.PPR,
        seed_by_vectors=True,
    ),
    QueryType.RELATIONSHIP: Preset(
        {PathName.LEXICAL: 0.7, PathName.SEMANTIC: 0.5, PathName.PPR: 1.2},
        _WALK,
        primary=PathName.PPR,
        seed_by_vectors=True,
    ),
    QueryType.MULTI_HOP: Preset(
        {PathName.LEXICAL: 0.6, PathName.SEMANTIC: 0.8, PathName.PPR: 1.2}, _WALK, primary=PathName.PPR
    ),
    QueryType.SIMILARITY: Preset({PathName.LEXICAL: 0.4, PathName.SEMANTIC: 1.2, PathName.GRAPH: 0.2}, _HYBRID),
    QueryType.PATTERN: Preset(
        {PathName.LEXICAL: 0.7, PathName.SEMANTIC: 1.0, PathName.GRAPH: 0.3}, _HYBRID, graph_scopes_vector=True
    ),
    QueryType.CROSS_PROJECT: Preset(
        {PathName.LEXICAL: 0.7, PathName.SEMANTIC: 1.0, PathName.GRAPH: 0.6}, _HYBRID, graph_scopes_vector=True
    ),
    QueryType.LOCAL_ONLY: Preset(
        {PathName.LOCAL: 1.5, PathName.LEXICAL: 0.8, PathName.SEMANTIC: 0.6},
        (PathName.LOCAL, PathName.LEXICAL, PathName.SEMANTIC),
        primary=PathName.LOCAL,
        primary_depth=3,
    ),
    # A broad question is about a part of the system: the communities nearest it lead with the prose and central
    # definitions of that part (in the fused order), and BM25 and dense fill in the rest.
    QueryType.OVERVIEW: Preset(
        {PathName.LEXICAL: 0.6, PathName.SEMANTIC: 1.0, PathName.COMMUNITY: 0.8},
        (PathName.LEXICAL, PathName.SEMANTIC, PathName.COMMUNITY),
        primary=PathName.COMMUNITY,
        primary_depth=3,
        primary_reorders=True,
    ),
    QueryType.GENERAL: Preset(
        {PathName.LEXICAL: 1.0, PathName.SEMANTIC: 1.0, PathName.PPR: 0.5}, _WALK, primary=PathName.PPR
    ),
}


@dataclass(frozen=True)
class Adjustment:
    """A rule that tunes the chosen preset rather than choosing a type: it scales path weights and may name the
    primary path. It fires for the listed types when `pattern` matches and `unless` does not."""

    name: str
    applies_to: frozenset[QueryType]
    pattern: re.Pattern[str]
    scale: dict[PathName, float]
    unless: re.Pattern[str] | None = None
    primary: PathName | None = None
    primary_depth: int = 5
    primary_reorders: bool = False


_CODE_LANGUAGE = (
    r"python\d?|java|javascript|typescript|node\.?js|golang|rust|c\+\+|c#|ruby|php|bash|sql|kotlin|swift|scala|"
    r"perl|numpy|pandas|django|flask|react"
)
# Code names in the query (snake_case, camelCase, dotted or called names) give BM25 something exact to match.
_CODE_NAME = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|\b[a-z]+[A-Z]\w*\b|\b\w+\.\w+\(|\b\w+\(\)")

ADJUSTMENTS: tuple[Adjustment, ...] = (
    # A programming task said in words ("python check if a variable is iterable", "how to join two data frames"):
    # the words are not the code's words, so BM25 matches on chance terms while the embedding matches the
    # meaning. On CoSQA dev, BM25 alone reaches MRR@10 0.33 against dense 0.53, and any equal-weight fusion
    # falls below dense; the dense path leads and BM25 only reorders its head.
    Adjustment(
        "code-task-in-words",
        frozenset({QueryType.GENERAL, QueryType.PATTERN}),
        re.compile(rf"(?:\b(?:{_CODE_LANGUAGE})(?=\W|$)|^\s*how (?:to|do i|can i|do you)\b)", re.IGNORECASE),
        {PathName.LEXICAL: 0.2},
        unless=_CODE_NAME,
        primary=PathName.SEMANTIC,
        primary_depth=20,
        primary_reorders=True,
    ),
)


def route(query: str) -> Plan:
    """The plan for a query: every rule is tried; the fired type highest in PRECEDENCE decides."""
    fired = [rule for rule in RULES if rule.pattern.search(query)]
    types = {rule.query_type for rule in fired}
    query_type = next((t for t in PRECEDENCE if t in types), QueryType.GENERAL)
    preset = PRESETS[query_type]
    weights = dict(preset.weights)
    primary, depth, reorders = preset.primary, preset.primary_depth, preset.primary_reorders
    names = [rule.name for rule in fired]
    for adjustment in ADJUSTMENTS:
        if query_type not in adjustment.applies_to or not adjustment.pattern.search(query):
            continue
        if adjustment.unless is not None and adjustment.unless.search(query):
            continue
        weights = {path: weight * adjustment.scale.get(path, 1.0) for path, weight in weights.items()}
        if adjustment.primary is not None:
            primary, depth, reorders = adjustment.primary, adjustment.primary_depth, adjustment.primary_reorders
        names.append(adjustment.name)
    return Plan(
        query_type=query_type,
        weights=weights,
        strategies=preset.strategies,
        graph_scopes_vector=preset.graph_scopes_vector,
        fusion=preset.fusion,
        primary=primary,
        primary_depth=depth,
        primary_reorders=reorders,
        seed_by_vectors=preset.seed_by_vectors,
        rules_fired=tuple(names),
    )
