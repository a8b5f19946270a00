"""The router's rules, as data: each names a query type by what the words of a query mean. A rule fires when its
pattern matches and its `unless` (the same words used in another sense) does not; the fired type highest in
PRECEDENCE wins. The rules say what a kind of question sounds like in general (its verbs, nouns and sentence shape),
never list particular questions."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


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
    unless: re.Pattern[str] | None = None

    def fires(self, query: str) -> bool:
        return bool(self.pattern.search(query)) and not (self.unless and self.unless.search(query))


def _rule(name: str, query_type: QueryType, pattern: str, unless: str | None = None, flags: int = re.I) -> Rule:
    return Rule(name, query_type, re.compile(pattern, flags), re.compile(unless, flags) if unless else None)


# Verbs that relate one named thing to another, in code (calls, imports, reads a table, renders a component, mounts
# a secret) and in documents (links to, blocks, supersedes). "blocks" and "covers" only in their relating sense.
_REL_VERB = (
    r"(?:call(?:s|ing)?(?!\s*(?:sites?|graphs?|stacks?|chains?|trees?|counts?|hierarch))|"
    r"(?<!thing )(?<!something )(?<!one )(?<!is )(?<!was )(?<!are )called|called(?= by)|uses?|used|using|"
    r"depends? on|depend(?:s|ed|ing)?|imports?|imported|importing|"
    r"inherit(?:s|ed|ing)?(?: from)?|extend(?:s|ed|ing)?|implement(?:s|ed|ing)?|owns?|owned|"
    r"(?<!building )block(?:s|ed|ing)?|subclass(?:es|ed|ing)|links? to|linked|(?<!api )(?<!the )(?<!an )(?<!a )"
    r"references?|referenced|referencing|navigates? to|delegates? to|"
    r"wrap(?:s|ped|ping)?|invokes?|invoked|triggers?|triggered|mention(?:s|ed|ing)?|enqueue[sd]?|"
    r"pulls? in|pulls? from|brings? in|ties? into|tied (?:to|into)|plugs? into|hooks? into|coupled (?:to|with)|"
    r"quer(?:y|ies|ied)|selects? from|backs|backing|backed by|embeds?|embedded|"
    r"reads?|writes?|written|writing|consumes?|consumed|produces?|publish(?:es|ed)|subscribes? to|subscribed to|"
    r"tests? (?:that )?covers?|covered by|renders?|rendered|mounts?|mounted|alters?|altered|touch(?:es|ed)?|"
    r"exercises?|exercised|feeds? into|fed into|points? (?:at|to)|go(?:es)? through|pass(?:es)? through|"
    r"supersed(?:e|es|ed|ing)|instantiates?|instantiated|emits?|emitted|hits?|registers?|registered|"
    r"sends? (?:\w+ ){0,2}to|listens? (?:to|on|for)|cites?|cited|citing|trained on|calls? into|gates?|gated|"
    r"guards?|guarded|maintains?|maintained|built from|"
    r"installs?|installed|deploys? to|deployed to)"
)
# Relations between people, works and places, as multi-hop questions about the world ask them.
_WORLD_VERB = (
    r"(?:born|died|buried|founded|directed|wrote|written|composed|produced|painted|designed|invented|discovered|"
    r"married|taught|stud(?:y|ied|ies)|graduated|attended|teach(?:es)?|lived|worked|play(?:s|ed)?|starred|"
    r"based on|adapted|hosted|"
    r"flows? (?:through|into)|located|got (?:his|her|their) (?:phd|degree|doctorate))"
)
# A role one thing has toward another: "the director of X", "the father of Y", "the owner of Z".
_ROLES = (
    r"(?:director|author|writer|screenwriter|composer|founder|creator|maker|producer|father|mother|son|daughter|"
    r"spouse|wife|husband|brother|sister|child|parent|owner|maintainer|caller|callee|importer|consumer|"
    r"capital|birthplace|publisher|successor|predecessor|performer|singer|actor|editor|presenter|lyricist|"
    r"cinematographer|architect|winner|member|leader|coach|manager|captain|president|ceo|head|chair|mayor|governor|king|"
    r"queen|ruler|teacher|mentor|student|alma mater|headquarters|stadium|home|subclass|superclass|base class|"
    r"parent class)"
)
# "the director of X" or "X's director".
_ROLE_OF = rf"(?:{_ROLES}s? of|'s {_ROLES})"
# Verbs that relate things in a chain but, alone, ask what a thing is ("which file defines X", "what does f return").
_CHAIN_VERB = (
    r"(?:defin(?:es|ed|ing)|exports?|exported|exposes?|returns?|returned|break(?:s)?|introduced|authored|approved|"
    r"created|added|owned by|run by|runs? (?:the|all|those|these)|cover(?:s|ed|ing)?|tests? for|review(?:s|ed)?|"
    r"modif(?:y|ies|ied)|changed|"
    r"merged|logs)"
)
# Words a query may open with before the question proper: "hey, what is X", "ok so where is Y".
_FILLER = r"(?:(?:hey|hi|ok|okay|so|um|uh|quick question|qq|question|please|pls)[,:!]?\s+)*"
# A name in a query: code (`ticks`, snake_case, dotted.names, calls()), a capitalised word past the first, or digits.
_NAME = (
    r"(?:`[^`]+`|\w+_\w+|\w+\.\w+|\w+\(\)|\d|(?<!\w)--?\w[\w-]*|'[^']+'|"
    r"(?-i:(?<=[\s\"(])(?<![.!?]\s)[A-Z]\w*|\b[a-z]+[A-Z]\w*))"
)
# A name that can only be code: `ticks`, snake_case, dotted.names, calls(), CamelCase.
_CODE_NAME = r"(?:`[^`]+`|\w+_\w+|\w+\.\w+|\w+\(\)|(?-i:\b[A-Z][a-z]+[A-Z]\w*|\b[a-z]+[A-Z]\w*))"
# Within one sentence (a dotted name's dot does not end it).
_SAME = r"(?:(?![.?!;](?:\s|$)).)*?"
# (Not inside a dotted name: `order.created` is a topic, not a relation.)
_ANY_RELATION = rf"(?<!\.)(?:{_REL_VERB}|{_WORLD_VERB}|{_ROLE_OF}|{_CHAIN_VERB})"
# A thing described by a relation it is in: "a function called by X", "the topic read from Y".
_DESCRIBED = (
    r"\w+ (?:called|used|imported|read|written|owned|triggered|returned|created|published|consumed|defined|"
    r"referenced|mentioned|fired|emitted|built|run|linked|extended|implemented|wrapped|rendered) (?:by|from|in)"
)
# What is asked of the thing a role leads to: "what nationality is the director of film X" is two hops.
_ATTRIBUTE = (
    r"(?:nationality|citizenship|country of (?:origin|citizenship)|place of (?:birth|death|burial)|date of "
    r"(?:birth|death)|cause of death|birthplace|birthday|age|how old|where|when)"
)
# How something is habitually done: the words that turn "how are X written" into a question about practice.
_HABIT = (
    r"(?:usual+y|typical+y|normal+y|general+y|commonly|customarily|conventionally|traditionally|tend to|"
    r"tends to|by convention|as a rule)"
)
# What makes a way of doing something the norm: "the usual way to", "the idiomatic way".
_NORM = (
    r"\b(?:usual|typical|customary|standard|conventional|idiomatic|preferred|recommended|established|accepted|"
    r"normal|go-to) (?:way|approach|practice|method|recipe|style|pattern)s?\b|\bthe norm\b"
)
# Where a practice lives: "here", "in this codebase", "our handlers", "most of our DAGs".
_HERE = r"(?:here|in here|(?:in )?this (?:code ?base|repo|repository|project|code)|our|we|most of our)"
# Someone doing the relating ("what do we use", "how do people write"): a question about practice, not about what
# relates to a named thing.
_SUBJECT_ACTS = (
    r"\b(?:we|you|i|they|people|folks|(?<!the )one|devs|developers|engineers)\s+(?:\w+\s+)?" + _REL_VERB + r"\b"
)
# A system named the way teams name repos and services: "payments-service", "auth-api", "ml-training".
_SYSTEM_NAME = (
    r"(?-i:[a-z][a-z0-9]*(?:-[a-z0-9]+)*-(?:service|svc|api|app|repo|lib|core|web|ui|server|client|worker|gateway|"
    r"platform|infra|sdk|training|serving|pipeline|frontend|backend|live))"
)
_PLACES = (
    r"(?:projects?|teams?|services?|repos?|repository|repositories|codebases?|squads?|products?|microservices?|"
    r"apps?|workspaces)"
)
_MANY_PLACES = r"(?:projects|teams|services|repos|repositories|codebases|squads|products|microservices|apps|workspaces)"
# A kebab-case name, as repos and services are named ("web-shop", "terraform-live").
_KEBAB = r"(?-i:[a-z][a-z0-9]*(?:-[a-z0-9]+)+)"
# Words that make a question about practice ("what patterns are used for X"), not about what relates to a thing.
_PRACTICE = r"\b(?:patterns?|approach(?:es)?|conventions?|practices?|idioms?|strateg(?:y|ies)|techniques?)\b"

RULES: tuple[Rule, ...] = (
    _rule(
        "instruction-file",
        QueryType.LOCAL_ONLY,
        r"\b(?:claude\.md|agents\.md|readme(?:\.md)?|contributing(?:\.md| guide)?|codeowners|"
        r"our (?:own )?(?:docs|documentation|instructions|guidelines|readme)|this (?:repo|project|codebase)'s "
        r"(?:docs|instructions|rules|guidelines|readme)|project instructions|instructions? files?|"
        r"(?:agent|contributor) instructions|house rules for this repo|claude[ .]?md|agents[ .]?md|"
        r"contribut(?:ing|or|ors)(?:'s)? guide|(?:our|the|this (?:repo|project)'s) changelog)\b",
        # What our files say, not how to write such a file, nor the same file across many repos.
        unless=r"^\s*how (?:to|do i|should i|can i) (?:write|create|make|structure|format|set up)\b|"
        rf"\b(?:repositories|repos) (?:have|has|with|that|whose)\b|\bacross (?:our|the|all|every)\b|"
        rf"\b{_KEBAB} (?:and|vs\.?|or) {_KEBAB}\b",
    ),
    _rule(
        "local-scope",
        QueryType.LOCAL_ONLY,
        # An explicit scope the query opens with ("local docs: ...", "docs only: ..."), or docs placed in this repo.
        r"^\s*(?:(?:local|project|repo|our|this repo'?s?)\s+)?(?:docs?|documentation|notes|guides?|wiki|readme)"
        r"(?:\s+only)?\s*:|"
        r"\b(?:the|our|this) (?:project|repo)(?:'s)? docs?\b|"
        r"\b(?:docs?|documentation|notes|guides?|wiki|readme)(?: (?:folder|directory|dir|pages?))?\s+(?:in|of|for|"
        r"from|inside)\s+(?:this|the current|"
        r"our|my)\s+(?:repo|repository|project|codebase|folder|workspace)\b|^\s*local\s*:|"
        # The project's own documents: "our setup doc", "the repo's agent guide", "this project's markdown docs".
        r"\b(?:our|(?:this|the|our) (?:repo|repository|project|codebase)'s|the local|local|in-repo|in-tree)\s+"
        r"(?:[\w-]+\s+){0,2}?"
        r"(?:docs?|documentation|guides?|readme|handbook|markdown(?: files| docs)?|manual)\b",
        # "The usual structure of a design doc in this repo" asks about practice, not what the docs say.
        unless=rf"\b(?:usual|typical|standard|normal|customary)\b|\b{_HABIT}\b",
    ),
    _rule(
        "similar-phrase",
        QueryType.SIMILARITY,
        r"\b(?:similar(?:ly)? to|similar|like this|like the following|looks? like (?:this|that|these|the following)|"
        r"(?:that|which) looks? like|resembl\w*|examples? of|in the (?:same )?spirit (?:as|of)|"
        r"along the lines of|reminiscent of|akin to|same (?:shape|style|idea|structure) as|"
        r"analogous|more like|others like|code like|near[- ]duplicates?|lookalikes?|comparable to|reads? like|"
        r"matching this|close to this|(?:roughly|basically|essentially|exactly|pretty much) the same|"
        r"same (?:thing|job|logic|behaviou?r|pattern) as|copy[- ]?pasted|examples? (?:where|in which)|"
        r"do the same\b|this snippet|"
        # "hooks like useX", "something like our util", "what else is like X": things like a given one.
        r"(?:roughly|basically|essentially|pretty much|more or less) (?:what|like)|look[- ]alikes?|analog(?:ue|ous)s?|"
        r"(?:written|shaped|structured|built|done|made|formatted|named|organi[sz]ed|implemented) like|"
        r"(?:copies|duplicates|clones?) of|same (?:kind|sort|type) of (?:\w+ )?as|samples? (?:usages?|of)|"
        r"example usages?|modell?ed (?:after|on)|inspired by|mirror(?:s|ing)?|equivalents? (?:of|to)|"
        r"(?:almost|nearly|near|practically|virtually) identical|identical to|nearest neighbou?rs?|similarity|"
        r"matching (?:the )?(?:shape|structure|form) of|\belse\b.{0,30}\b(?:is|are) like|"
        r"equivalent (?:snippets?|code|functions?|classes)|"
        r"(?!(?:seems|sounds|feels|looks|was|has|does|whats|thats|its|lets|is)\b)\w+s like|"
        r"(?:something|stuff|anything|else|ones?|more|"
        r"thing|one) (?:(?:is|are|just|kind of|sort of|a bit|more) )?like)\b",
    ),
    _rule(
        "pasted-code",
        QueryType.SIMILARITY,
        r"(?:\n\s*(?:def |class |function |func |fn |public |return |if |for |const |let |import |from )|"
        r"Traceback \(most recent call last\)|^\s*at [\w.$<>]+\([\w.]+:\d+\)|Exception in thread|panic: |"
        r"File \"[^\"]+\", line \d+|"
        r"\w+Error: .+\n)",
        flags=re.MULTILINE,
    ),
    _rule(
        "pasted-error",
        QueryType.SIMILARITY,
        # An error message pasted as is: `TypeError: ...`, `psycopg2.OperationalError: ...`, `Error: listen ...`.
        r"(?:^|[\s?:])(?:[A-Za-z_][\w.]*(?:Error|Exception)|Error|FATAL|fatal error|panic|error\[\w+\]):\s+\S|"
        r"\b(?:ERROR|FATAL)\b[^:\n]{0,30}:\s+\S|"
        # Code pasted inline: a function head, a block opened, an arrow function, a JSON or YAML object.
        r"\b(?:func|def|fn|function) \w+\(|\)\s*(?:\w+\s*)?\{|=>|\{\s*\"\w+\"\s*:|\bkind: \w+,",
        flags=0,
    ),
    _rule(
        "relation-chain",
        QueryType.MULTI_HOP,
        # Two relations, one describing what the other reaches: "what calls the functions that write to X", "tables
        # written by tasks that the DAG triggers", "the thing that calls X depends on", "the director of X was born".
        # Both in one sentence: a chain does not cross a full stop.
        rf"\b{_ANY_RELATION}\b{_SAME}\b(?:that|which|who|whose|where|whom|by|of|whatever|whichever)\b{_SAME}"
        rf"\b{_ANY_RELATION}\b|"
        # A thing identified by an event: "the city that hosted the 2012 Olympics".
        r"\b(?:in|of|from|for|at|by) the [\w-]+(?: [\w-]+)? (?:that|which|who|where) \w+ed\b|"
        rf"\b(?:that|which|who|whose)\b{_SAME}\b{_ANY_RELATION}\b{_SAME}\b{_ANY_RELATION}\b|"
        rf"\b{_ROLE_OF}\b{_SAME}\b(?:{_ANY_RELATION}|{_ROLES})\b|"
        rf"\b(?:{_ANY_RELATION}|{_ATTRIBUTE})\b{_SAME}\b{_ROLE_OF}\b|"
        rf"\b{_ANY_RELATION}\b{_SAME}\b{_DESCRIBED}\b|"
        # "what depends on the job that builds the image": a thing identified by what it does.
        rf"\b{_REL_VERB}\b{_SAME}\b(?:that|which|who|whose)\b(?: \w+)? (?:is \w+ by|\w+s|\w+ed)\b(?! and\b)|"
        # "the country whose capital is X", "what depends on the things f calls".
        rf"\b(?:in|of|from|for|at|by) the [\w-]+(?: [\w-]+)? whose\b|"
        rf"\b{_REL_VERB}\b{_SAME}\b(?:the|those|these|any|all)\s+\w+\s+[\w.`()]+\s+{_REL_VERB}\b",
        unless=r"^\s*(?:what|who|which)(?: \w+)? (?:calls|uses|imports|references) and (?:what|who|which)\b|"
        rf"{_SUBJECT_ACTS}|{_PRACTICE}|\bstyles?\b|"
        # A task to write code ("write a function that ...") is not a question about relations.
        r"^\s*(?:python\s+|js\s+|javascript\s+)?(?:write|create|make|build|implement|generate|code|give me)\b",
    ),
    _rule("of-the-chain", QueryType.MULTI_HOP, r"\b(?:the )?\w+(?: \w+)? of the \w+(?: \w+)? (?:of|who|that|which)\b"),
    _rule(
        "two-hop-words",
        QueryType.MULTI_HOP,
        r"\b(?:indirectly|transitively|two hops?|2 hops?|chain of|through which|via the|by way of|"
        r"in turn|end[- ]to[- ]end path|all the way (?:down |up |back )?(?:to|from)|ends? up|ended up|"
        r"transitive(?:ly)?|levels? deep|(?:two|three|2|3) (?:levels|hops|steps) (?:deep|away|out)|"
        r"(?<!upgrade )(?<!migration )path from .+ to|follow the chain|->.*->|→.*→)|"
        # Reaching one thing through another: "handlers that reach the database through CacheLayer".
        r"\b(?:reach|access|hit|call|touch|get to|talk to|read|write)\w*\s+(?:the\s+)?[\w.-]+(?:\s+[\w.-]+)?\s+"
        r"(?:through|via)\b",
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
        rf"\b(?:other|another|different|sibling|sister|neighbou?ring|the other)(?: [\w'-]+){{0,2}} {_PLACES}\b|"
        r"\bcompared (?:to|with) (?:us|ours)\b|\bthan (?:us|ours)\b|\bvs\.? ours\b|more than one (?:team|project|repo|"
        r"service|app)|multi[- ]?repo|cross[- ]?repo|polyrepo|org[- ]?(?:wide|level)|company[- ]?(?:wide|level)|"
        r"\b(?:our|the) (?:whole |entire )?(?:[\w-]+ )?org\b|"
        # Many places at once: "all our repos", "every project", "each team's" (not "across the app": one place).
        rf"\b(?:every|each)(?: (?:indexed|single|other))? (?:{_PLACES}|(?:team|project|service|repo)'s)\b|"
        rf"\b(?:all|across|multiple|several|both)(?: (?:the|of|our|my|indexed|\w+'s))?(?: (?:the|our|indexed))? "
        rf"{_MANY_PLACES}\b|"
        rf"\b(?:which|what) {_PLACES}\b|"
        r"\b(?:organi[sz]ation(?:-wide)?|org-wide|company-wide|across the (?:org|company)|cross[- ]"
        r"(?:project|team|repo|service)|elsewhere in the (?:org|company)|monorepo-wide|in the org)\b|"
        r"\b(?:anyone|anybody|someone|somebody|others) else\b|\bthe [\w-]+ (?:org|organi[sz]ation|department|"
        r"division)\b|(?:company|org|organi[sz]ation)'s\b|(?-i:\bteam [A-Z]\w+)|(?:project|team|repo|service) \w+ "
        r"(?:and|vs\.?|versus|or) (?:the )?(?:project|team|repo|service) \w+|"
        r"\b(?:outside|beyond) (?:of )?(?:this|our|my) (?:repo|project|team|codebase|service|workspace)\b|"
        r"\b(?:in|from|at) the (?!the\b|this\b|our\b|my\b|current\b|same\b|main\b|new\b|whole\b|entire\b)[\w-]+ "
        r"(?:project|repo|repository)\b|\b(?:in|from|of) (?:project|repo|repository) "
        rf"(?:{_KEBAB}|(?-i:[A-Z]\w+)|`[^`]+`)|\bthe (?!this\b|our\b|my\b|same\b|whole\b|entire\b|core\b)"
        r"(?:[\w-]+ ){1,2}team\b|"
        rf"\b(?:list|show|find|which|what|any)\s+(?:all\s+)?(?:the\s+)?(?:projects|repos|repositories|codebases|"
        r"teams|services|microservices|apps)\b|"
        rf"\b{_PLACES}\b.*\bdiffer\b|\b\w+ (?:project|app|repo)\b.*\b(?:with|and|vs\.?|versus) the \w+ (?:project|app|"
        r"repo)\b|"
        rf"\b(?:between|in|both|compare|comparing)\b[^.?]*?\b{_KEBAB} (?:and|vs\.?|versus|or) (?:the )?{_KEBAB}\b|"
        r"(?:somewhere )?(?:in|across|within) the (?:company|org|organi[sz]ation|enterprise)\b|"
        rf"\b(?:any|some|none|all|each|every|most|either|which) of (?:our|the)\s+(?:[\w-]+\s+)?{_PLACES}\b|"
        rf"\b{_SYSTEM_NAME} (?:and|vs\.?|versus|or) (?:the )?{_SYSTEM_NAME}\b|"
        r"\bbetween the [\w\s-]+ and the [\w\s-]+?(?:service|repo|"
        r"project|app|system|monolith)s?\b|"
        # Another project or team by name: "the payments-gateway project", "the mobile team's repo", "the frontend
        # and backend repos".
        r"\b(?:the|in|from)\s+(?!the\b|this\b|our\b|my\b|current\b|same\b|main\b|new\b|whole\b|entire\b)[\w.-]+"
        r"(?:\s+and\s+[\w.-]+)?\s+"
        r"(?:repos?|repository|repositories|codebases)\b|\b(?:the|both the|in the)\s+[a-z]+-[\w-]+\s+"
        r"(?:project|service)s?\b|\b\w+ and \w+ (?:projects|repos|teams|services)\b|\b\w+ team'?s\b",
    ),
    _rule(
        "compare-named",
        QueryType.CROSS_PROJECT,
        # Comparing how named things do something (not what two concepts mean: "soft delete vs hard delete").
        r"\b(?:compare|compared (?:to|with)|comparison of|contrast)\b.*\b(?:and|with|to|vs\.?|versus|ours)\b|"
        r"\b[\w-]+ (?:vs\.?|versus) [\w-]+\s*:|"
        r"\b(?:differs?|differently) (?:from|than)\b",
    ),
    _rule(
        "relation-word",
        QueryType.RELATIONSHIP,
        rf"\b(?:what|who|which|where|how|everything|anything|whatever)\b.*\b{_REL_VERB}\b|"
        rf"^\s*(?:does|do|is|are|did|can|could|will)\b.*\b{_REL_VERB}\b|"
        # "modules that import `server.settings`": things related to a named one.
        rf"\b(?:that|which|who)\s+{_REL_VERB}\s+[^.?]*{_CODE_NAME}|"
        r"\b(?:callers?|callees?|call ?sites?|usages? of|invocations? of|dependents|dependencies|"
        r"upstream|downstream|consumers? of|clients? of|users? of|importers? of|subclass(?:es)? of|references to|"
        r"connect(?:s|ed)? (?:to|with)|connections? (?:between|to|from|with)|how (?:is|are|does|do) .+ connected|"
        r"relation(?:ship)?s? (?:to|between|with)|how (?:is|are|does|do) .+ relate[sd]?|interacts? with|talks? to|"
        r"usages?|^\s*trace\b.+\bto\b|trac(?:es|ed)? (?:back )?"
        r"to|traces? of|wired (?:to|up)|hooked up|(?:import|dependency|call|inheritance) (?:graph|tree|chain) "
        r"(?:of|around|for|from)|"
        r"what (?:would |will |could |might )?breaks?|breaks? if|impact of (?:changing|renaming|removing)|"
        r"blast radius|(?:reverse )?deps (?:of|on)\b|dependants|edges? (?:out of|into|from|of|between)|"
        r"dependency edges|what (?:gets|is|are|would be) (?:af+ected|impacted)|\bhow\b.+\bconnected|"
        r"(?:incoming|outgoing) "
        r"(?:edges|calls|links|references|dependencies))\b",
        unless=rf"{_HABIT}|{_SUBJECT_ACTS}|{_PRACTICE}|{_NORM}|^\s*how (?:to|do i|can i|should i)\b|"
        r"\b(?:is|are) (?:it|they|this|that) (?:implemented|defined|declared)\b",
    ),
    _rule(
        "broad-summary",
        QueryType.OVERVIEW,
        r"\b(?:overview|summary|summari[sz]e|landscape|big[- ]picture|high[- ]level|architecture|tour of|"
        r"bird'?s[- ]eye|outline|map of|map out|lay of the land|rundown|run-down|tl;?dr|broad strokes|broadly|"
        r"intro to|introduction to|primer on|crash course|onboarding|survey of|overall (?:design|"
        r"structure|layout|shape|flow|picture|organi[sz]ation)|laid out|put together|"
        r"(?:main|major|key|core|principal|primary|big) (?:parts|components|modules|areas|pieces|subsystems|"
        r"building blocks|moving parts|layers|packages|domains|concepts|pieces)|"
        r"what (?:areas|parts|pieces|components|subsystems) (?:does|do|are|is)|"
        r"walk me through (?:the|how)|what does the \w+ (?:system|subsystem|codebase|area) (?:look like|do)|"
        r"newcomer|show (?:me |a [\w-]+ |us )?around|moving parts|what (?:does|do) .+ consist of|recap of|"
        r"zoom(?:ed)? out|orientation (?:for|to|on|in)|orient (?:me|myself|us)|gist|[\d,]+[- ]foot view|"
        r"helicopter view|at a glance|as a whole|i'?m new|new to (?:the|this|our)|what should i know about|"
        r"synopsis|panorama|architectur\w*|sum+ari[sz]e|each (?:major )?area|(?:layout|structure|organi[sz]ation|"
        r"shape) of (?:the |this |our )?(?:whole |entire )?(?:repo|codebase|project|code|system|app|monorepo)|"
        r"overv\w*w|structure of the (?:repo|codebase|project|code|system|app)|how (?:is|are) (?:the |this |our )?"
        r"(?:[\w-]+ )?(?:codebase|repo|project|code|system|app|monorepo) (?:organi[sz]ed|structured|laid out|"
        r"arranged)|"
        r"what (?:subsystems|components|modules|parts|pieces|areas|packages|services) (?:exist|are there|make up))\b",
        # "How are notebooks usually laid out": a question about practice.
        unless=rf"\b{_HABIT}\b",
    ),
    _rule(
        "how-we-do",
        QueryType.PATTERN,
        r"\b(?:how (?:do|does|should|would|did|are) (?:we|you|i|one|they|people|teams?|folks) "
        r"(?:here |around here |in this (?:codebase|repo) )?(?:usually |"
        r"typically |normally |generally |commonly )?(?:handle|do|write|implement|structure|organi[sz]e|test|"
        r"deal with|approach|name|log|validate|configure|manage|retry|version|document|deploy)|conventions?|"
        r"best practices?|common (?:approach|pattern|way|practice|idiom)s?|idiomatic|idioms?|(?:usual|standard|"
        r"typical|recommended|preferred|accepted|established|normal|customary|go-to) (?:way|approach|pattern|"
        r"practice|shape|structure|layout|anatomy|setup|folder structure|style)|usually (?:done|handled)|"
        r"style guide|(?:house|coding|code) style|rule of thumb|(?:recurring |design )?patterns? (?:for|of|used|"
        r"we use|in)|what patterns|(?:approach|approaches) (?:does|do|is|are|exist|we)|"
        r"do we prefer|prefer(?:red)? .+ (?:or|over) .+ here)\b|"
        # A habit asked about: "how are migrations normally written in this codebase", "what do our repository
        # classes usually look like", "the way we tend to organise fixtures".
        rf"\b{_HABIT}\b|\bthe way (?:we|you|they|people)\b|naming (?:scheme|conventions?|rules?|style)|"
        r"\bour (?:approach|approaches|way|conventions?|practices?|strateg(?:y|ies)) (?:to|for|of)\b|"
        # The norm itself named, or a thing asked about as typical of this codebase.
        r"\b(?:practices|recipes?|boilerplate|the norm|house rules|(?:consistent|recurring|"
        r"typical|usual|customary|conventional|standard|established|normal) (?:\w+ ){0,2}?(?:way|approach|"
        r"practice|recipe|shape|structure|layout|style|pattern|entry|setup|template|format|boilerplate)s?)\b|"
        rf"\b(?:typical|usual|customary|consistent|standard|common)\b.*\b{_HERE}\b|"
        rf"\b(?:which|what) (?:style|styles|approach|approaches|strategy|strategies|techniques?|(?:design )?"
        r"patterns?|practices?|conventions?|idioms?|methods?)\b|\bstyle(?:\s*\??$| for| of| in)|"
        # "How do we register providers": how this team does something.
        r"\bhow (?:do|does|should|would|did|are|can) (?:we|people|folks|teams?|devs|developers) (?!\w+ (?:in|on|at|"
        r"for) (?:the )?(?:other|another)\b)|"
        rf"\b{_HERE}\b.*\b(?:look like|follow|lean on|stick to|rely on)\b",
    ),
    _rule(
        "what-is",
        QueryType.ENTITY_LOOKUP,
        rf"^\s*{_FILLER}(?:where(?: is|'s| are| does)|describe|define|"
        r"definition of|tell me about|explain(?: what)?|show(?: me)?|find|look up|locate|location of|details (?:of|"
        r"on|about)|info on|signature of|docstring of|purpose of|meaning of)\b|"
        r"\bwhat (?:is|are) (?:it|this|that|they)\b|\bwhere is (?:it|this|that)\b|jump to (?:the )?(?:def|"
        r"definition|declaration|source)|go to (?:the )?definition|\bdefining (?:module|file|class)\b|"
        r"\bresolve (?:the )?(?:identifier|name|symbol)\b|\bwhat (?:an? |the )?['\"`]?[\w.]+['\"`]? (?:is|are|means)\b|"
        r"\btell me (?:about|what)\b|\b(?:represents?|stands? for)\b|"
        r"^\s*(?:def|defn|definition)(?: of)? `?[\w.]+`?\s*(?:pls|please)?\s*\??\s*$|"
        r"^\s*who (?:is|was|were|are)\b|"
        r"\b(?:definition|declaration)\b|\b(?:signature|docstring|source) (?:of|for)\b|"
        r"\bwhich (?:file|module|package|class) (?:defines|declares|contains|holds|has)\b|"
        r"\bwhat (?:props|inputs|outputs|params|flags|variants|cases|"
        r"types) (?:does|do|is|are)\b|\b(?:does|do) (?:it|this|they) (?:take|have|accept|return|hold)\b",
        # "What's the difference between X and Y", "what's the best way to": general questions, not a named thing.
        unless=r"\bdifferences? between\b|\bwhat'?s the (?:best|right|easiest|fastest|simplest|proper) way\b",
    ),
    _rule(
        "what-is-named",
        QueryType.ENTITY_LOOKUP,
        # "What is X" is a lookup when X is a name (code, a proper noun, an id); "what is eventual consistency"
        # asks about a concept.
        rf"^\s*{_FILLER}(?:wha?t(?: exactly)?(?: is|'?s| are| does| was| kind of| type of)|who (?:is|was|were|are))\b|"
        r"^\s*what \w+ (?:does|do|is|are) (?:the )?[\w.`]+",
        unless=rf"^(?!.*{_NAME})|\bdifferences? between\b|\bwhat'?s (?:the|a) (?:best|right|easiest|fastest|"
        r"simplest|proper|sensible|good) way\b|\bin general\b",
    ),
    _rule(
        "defined-where",
        QueryType.ENTITY_LOOKUP,
        r"\b(?:defined|declared|implemented|located|lives?)\b(?: \w+){0,4}\s*\??$|"
        r"\bwhere?\b.*\b(?:def\w*|declar\w*|lives?|located|kept)\b|\bwhat (?:fields|members|methods|attributes|"
        r"properties|columns|values|arguments|parameters|options|keys)\b|\blook ?up\s*:",
        # "Are A and B both located in the same country?" compares two things.
        unless=r"\b(?:both|same|either)\b",
    ),
    _rule(
        "id-reference",
        QueryType.ENTITY_LOOKUP,
        r"\b(?i:plan|adr|rfc|ticket|issue|bug|pr|incident|spec|story|epic|decision|decision record|record|"
        r"migration|revision|changeset)[\s#-]*\d+\w*\b|(?:^|\s)#\d+\b|\b[A-Z][A-Z0-9]+-\d+\b",
        flags=0,
    ),
    _rule(
        "bare-identifier",
        QueryType.ENTITY_LOOKUP,
        r"^\s*`?[A-Za-z_][\w]*(?:(?:\.|::)[A-Za-z_][\w]*)*(?:\(\))?`?\s*\??\s*$",
        # An acronym alone ("CORS", "JWT") is a topic.
        unless=r"^\s*[A-Z]{2,6}s?\s*\??\s*$",
        flags=0,
    ),
)
