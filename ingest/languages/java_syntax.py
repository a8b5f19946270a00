"""The Java tree as the binder reads it: type names as written, the variables a method declares and where each
is visible, type parameters and supertypes, and the JDK names that no indexed project defines."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

import tree_sitter as ts

from trident.ingest.languages import language_for, node_text
from trident.ingest.languages.lexical import LexicalNames

CLASSES = frozenset(
    {
        "class_declaration",
        "interface_declaration",
        "enum_declaration",
        "record_declaration",
        "annotation_type_declaration",
    }
)
# Nodes whose children are a class's members (an enum's methods sit in `enum_body_declarations`).
BODIES = frozenset({"class_body", "interface_body", "enum_body", "enum_body_declarations", "annotation_type_body"})
FIELDS = frozenset({"field_declaration", "constant_declaration"})
METHODS = frozenset({"method_declaration", "annotation_type_element_declaration"})
# What a type no indexed project defines resolves to: primitives, arrays, local and JDK classes.
OUTSIDE = "java.lang.Object"
JDK_PREFIXES = ("java.", "javax.", "jdk.", "sun.")
_CONSTANT = re.compile(r"[A-Z][A-Z0-9]*_[A-Z0-9_]*")
_PRIMITIVES = frozenset({"integral_type", "floating_point_type", "boolean_type", "void_type", "array_type"})
# Lexical scopes a pattern variable (`o instanceof Foo f`, `case Foo f ->`) can stay visible in.
_SCOPES = frozenset({"block", "switch_block", "constructor_body", "lambda_expression", "method_declaration"})
_LAMBDA_PARAMETERS = frozenset({"identifier", "inferred_parameters"})
_DECLARING = frozenset(
    {
        *("local_variable_declaration", "formal_parameter", "spread_parameter", "catch_formal_parameter"),
        *("resource", "enhanced_for_statement", "instanceof_expression", "type_pattern"),
        *("record_pattern_component", "lambda_expression"),
    }
)

# java.lang: every file sees these without an import.
JAVA_LANG = frozenset(
    {
        *("Object", "String", "StringBuilder", "StringBuffer", "CharSequence", "Math", "StrictMath", "System"),
        *("Integer", "Long", "Short", "Byte", "Double", "Float", "Boolean", "Character", "Number", "Void"),
        *("Class", "ClassLoader", "Thread", "ThreadLocal", "InheritableThreadLocal", "Runnable", "Runtime"),
        *("Process", "ProcessBuilder", "ProcessHandle", "Iterable", "Comparable", "AutoCloseable", "Cloneable"),
        *("Enum", "Record", "Appendable", "Readable", "StackTraceElement", "StackWalker", "Package", "Module"),
        *("Throwable", "Exception", "RuntimeException", "Error", "IllegalArgumentException"),
        *("IllegalStateException", "NullPointerException", "UnsupportedOperationException", "AssertionError"),
        *("IndexOutOfBoundsException", "ArrayIndexOutOfBoundsException", "StringIndexOutOfBoundsException"),
        *("ClassCastException", "ArithmeticException", "NumberFormatException", "InterruptedException"),
        *("CloneNotSupportedException", "ReflectiveOperationException", "ClassNotFoundException"),
        *("NoSuchMethodException", "NoSuchFieldException", "InstantiationException", "IllegalAccessException"),
        *("SecurityException", "StackOverflowError", "OutOfMemoryError", "LinkageError", "NoClassDefFoundError"),
        *("ExceptionInInitializerError", "VirtualMachineError", "Override", "Deprecated", "SuppressWarnings"),
        *("FunctionalInterface", "SafeVarargs", "ThreadGroup", "SecurityManager"),
    }
)
# Common types of the JDK packages code imports with a wildcard (`import java.util.*;`).
JDK_TYPES = frozenset(
    {
        *("List", "ArrayList", "LinkedList", "Map", "HashMap", "LinkedHashMap", "TreeMap", "SortedMap", "Set"),
        *("HashSet", "LinkedHashSet", "TreeSet", "SortedSet", "NavigableMap", "NavigableSet", "Collection"),
        *("Collections", "Arrays", "Objects", "Optional", "OptionalInt", "OptionalLong", "OptionalDouble"),
        *("Iterator", "ListIterator", "Enumeration", "Deque", "ArrayDeque", "Queue", "PriorityQueue", "Stack"),
        *("Vector", "Hashtable", "Properties", "Random", "Scanner", "UUID", "Date", "Calendar", "Locale"),
        *("Comparator", "EnumMap", "EnumSet", "BitSet", "StringJoiner", "Timer", "TimerTask", "Base64"),
        *("WeakHashMap", "IdentityHashMap", "Spliterator", "Formatter", "Currency", "TimeZone", "Entry"),
        *("NoSuchElementException", "ConcurrentModificationException", "Function", "BiFunction", "Supplier"),
        *("Consumer", "BiConsumer", "Predicate", "BiPredicate", "UnaryOperator", "BinaryOperator"),
        *("IntFunction", "ToIntFunction", "ToLongFunction", "IntPredicate", "IntConsumer", "IntSupplier"),
        *("Stream", "IntStream", "LongStream", "DoubleStream", "Collectors", "Collector", "StreamSupport"),
        *("ExecutorService", "Executors", "Executor", "Future", "CompletableFuture", "CompletionStage"),
        *("ConcurrentHashMap", "ConcurrentMap", "TimeUnit", "CountDownLatch", "Callable", "Semaphore"),
        *("ThreadPoolExecutor", "ScheduledExecutorService", "CopyOnWriteArrayList", "BlockingQueue"),
        *("LinkedBlockingQueue", "ArrayBlockingQueue", "AtomicInteger", "AtomicLong", "AtomicBoolean"),
        *("AtomicReference", "Lock", "ReentrantLock", "ReadWriteLock", "ReentrantReadWriteLock", "Condition"),
        *("File", "InputStream", "OutputStream", "Reader", "Writer", "BufferedReader", "BufferedWriter"),
        *("InputStreamReader", "OutputStreamWriter", "FileInputStream", "FileOutputStream", "FileReader"),
        *("FileWriter", "PrintStream", "PrintWriter", "IOException", "UncheckedIOException", "Serializable"),
        *("FileNotFoundException", "Closeable", "ByteArrayInputStream", "ByteArrayOutputStream", "StringReader"),
        *("StringWriter", "DataInputStream", "DataOutputStream", "ObjectInputStream", "ObjectOutputStream"),
        *("Path", "Paths", "Files", "StandardCharsets", "Charset", "ByteBuffer", "Instant", "Duration"),
        *("LocalDate", "LocalDateTime", "LocalTime", "ZonedDateTime", "ZoneId", "Clock", "BigDecimal"),
        *("BigInteger", "URI", "URL", "Pattern", "Matcher", "Method", "Field", "Constructor", "Logger"),
    }
)
# Object's final methods: no class can define its own, so no receiver makes them a project's.
OBJECT_FINAL_METHODS = frozenset({"getClass", "notify", "notifyAll", "wait"})
# Methods of the JDK's strings, boxes, collections, streams and optionals: on a receiver whose type the file does
# not state, `x.get()` is far more often one of these than a project's method of that name.
JDK_METHODS = frozenset(
    {
        *("equals", "hashCode", "toString", "getClass", "compareTo", "clone", "length", "charAt", "substring"),
        *("indexOf", "lastIndexOf", "startsWith", "endsWith", "trim", "strip", "split", "replace", "replaceAll"),
        *("toLowerCase", "toUpperCase", "isEmpty", "isBlank", "contains", "containsKey", "containsValue", "get"),
        *("getOrDefault", "put", "putAll", "putIfAbsent", "computeIfAbsent", "merge", "add", "addAll", "remove"),
        *("removeIf", "size", "clear", "iterator", "hasNext", "next", "stream", "map", "filter", "collect"),
        *("forEach", "reduce", "sorted", "flatMap", "findFirst", "findAny", "anyMatch", "allMatch", "noneMatch"),
        *("toList", "toArray", "orElse", "orElseGet", "orElseThrow", "isPresent", "ifPresent", "append"),
        *("format", "valueOf", "of", "keySet", "values", "entrySet", "getKey", "getValue", "println", "print"),
        *("intValue", "longValue", "doubleValue", "booleanValue", "name", "ordinal", "getMessage", "getCause"),
        *("printStackTrace", "join", "matches", "getBytes", "toCharArray", "limit", "skip", "count", "distinct"),
        *("mapToInt", "mapToObj", "boxed", "sum", "max", "min", "peek", "apply", "accept", "test", "asList"),
    }
)


def is_outside(qualified: str) -> bool:
    """Whether a resolved type is one no indexed project defines (the JDK, a primitive, an array, a local class).

    Only what resolution marks so: a project's own folder may well be called `java/`."""
    return qualified == OUTSIDE


def is_type_name(name: str) -> bool:
    """`Foo`, `URL` read as a type; `pool`, `MAX_SIZE` (a constant) and `com` (a package) do not."""
    return name[:1].isupper() and not _CONSTANT.fullmatch(name)


def written_type(node: ts.Node | None) -> str:
    """A type as written, without its type arguments: `List<Foo>` -> `List`, `com.acme.Foo` -> `com.acme.Foo`;
    OUTSIDE for primitives and arrays, "" for what is no type name (`var` is left to the caller)."""
    while node is not None and node.type in ("generic_type", "annotated_type"):
        node = next((c for c in node.named_children if c.type.endswith("type_identifier")), None)
    if node is None:
        return ""
    if node.type in _PRIMITIVES:
        return OUTSIDE
    if node.type == "scoped_type_identifier":
        return ".".join(written_type(c) for c in node.named_children if c.type.endswith("type_identifier"))
    return node_text(node) if node.type in ("type_identifier", "identifier") else ""


def read_import(node: ts.Node) -> tuple[str, bool, bool]:
    """`import static a.b.C.*;` -> ("a.b.C", static, wildcard)."""
    name = next((c for c in node.named_children if c.type in ("scoped_identifier", "identifier")), None)
    static = any(c.type == "static" for c in node.children)
    return node_text(name), static, any(c.type == "asterisk" for c in node.named_children)


def is_anonymous_body(node: ts.Node) -> bool:
    """Whether a class body is an anonymous class's (`new Foo() { ... }`)."""
    return node.type == "class_body" and node.parent is not None and node.parent.type == "object_creation_expression"


def type_parameters(node: ts.Node) -> dict[str, ts.Node | None]:
    """A generic class's or method's type parameters and the first bound of each (`T extends Foo` -> Foo)."""
    holder = node.child_by_field_name("type_parameters")
    found: dict[str, ts.Node | None] = {}
    for parameter in holder.named_children if holder is not None else []:
        name = next((c for c in parameter.named_children if c.type == "type_identifier"), None)
        bound = next((c for c in parameter.named_children if c.type == "type_bound"), None)
        if name is not None:
            found[node_text(name)] = bound.named_children[0] if bound is not None and bound.named_children else None
    return found


def supertypes(node: ts.Node) -> list[ts.Node]:
    """The type nodes a class extends or implements, or an interface extends, in declared order."""
    holders = [node.child_by_field_name("superclass"), node.child_by_field_name("interfaces")]
    holders += [c for c in node.named_children if c.type == "extends_interfaces"]
    found: list[ts.Node] = []
    for holder in holders:
        for child in holder.named_children if holder is not None else []:
            found.extend(child.named_children if child.type == "type_list" else [child])
    return found


@dataclass(eq=False)
class ClassShape:
    """What a class declares that calls in and on it are bound by."""

    name: str
    qualified: str  # "" for an anonymous or local class: the outline makes no entity of it
    parent: ClassShape | None = None
    bases: list[ts.Node] = field(default_factory=list)  # as written; an anonymous class's: the type it creates
    type_params: dict[str, ts.Node | None] = field(default_factory=dict)
    fields: dict[str, ts.Node] = field(default_factory=dict)  # field -> its type (an enum constant: the constant)
    methods: dict[str, ts.Node | None] = field(default_factory=dict)  # None: overloads return different types
    nested: dict[str, ClassShape] = field(default_factory=dict)

    def chain(self) -> Iterator[ClassShape]:
        """The class and the classes around it, innermost first."""
        current: ClassShape | None = self
        while current is not None:
            yield current
            current = current.parent


@dataclass(frozen=True)
class Site:
    """Where a call or base is: its class (one the outline names), the anonymous and local classes between, and
    the member of its class it is in."""

    cls: ClassShape | None
    inner: tuple[ClassShape, ...] = ()  # innermost first
    member: ts.Node | None = None  # what it declares is read on first need
    type_params: dict[str, ts.Node | None] = field(default_factory=dict)  # the member's own
    at: int = 0  # byte offset of the site

    def classes(self) -> Iterator[ClassShape]:
        """The classes whose members the site sees unqualified, innermost first."""
        yield from self.inner
        if self.cls is not None:
            yield from self.cls.chain()


def read_class(node: ts.Node, qualified: str, parent: ClassShape | None) -> tuple[ClassShape, list[ts.Node]]:
    """A class declaration's shape, and the member classes it declares (for the caller to read in turn)."""
    name = node_text(node.child_by_field_name("name"))
    cls = ClassShape(name, qualified, parent, supertypes(node), type_parameters(node))
    components = node.child_by_field_name("parameters")  # a record's
    for component in components.named_children if components is not None else []:
        _note_field(cls, component.child_by_field_name("name"), component.child_by_field_name("type"))
    return cls, _read_members(cls, node.child_by_field_name("body"))


def anonymous(body: ts.Node) -> ClassShape:
    """The class a `new Foo() { ... }` body declares: a subclass of Foo with no name."""
    created = body.parent.child_by_field_name("type") if body.parent is not None else None
    cls = ClassShape("", "", None, [created] if created is not None else [])
    _read_members(cls, body)
    return cls


def _read_members(cls: ClassShape, body: ts.Node | None) -> list[ts.Node]:
    """Note the fields and methods of a class body (enum constants and their bodies too); returns its classes."""
    classes: list[ts.Node] = []
    for member in body.named_children if body is not None else []:
        kind = member.type
        if kind in FIELDS:
            for declarator in member.children_by_field_name("declarator"):
                _note_field(cls, declarator.child_by_field_name("name"), member.child_by_field_name("type"))
        elif kind in METHODS:
            _note_method(cls, member)
        elif kind == "enum_constant":
            _note_field(cls, member.child_by_field_name("name"), member)
            _read_members(cls, member.child_by_field_name("body"))  # its classes are the outline's too, unbound
        elif kind == "enum_body_declarations":
            classes += _read_members(cls, member)
        elif kind in CLASSES and node_text(member.child_by_field_name("name")):
            classes.append(member)
    return classes


def _note_field(cls: ClassShape, name: ts.Node | None, kind: ts.Node | None) -> None:
    if name is not None and kind is not None:
        cls.fields.setdefault(node_text(name), kind)


def _note_method(cls: ClassShape, method: ts.Node) -> None:
    """Record a method; overloads that return different types leave its return type unknown."""
    name = node_text(method.child_by_field_name("name"))
    if not name:
        return
    if name not in cls.methods:
        cls.methods[name] = method
        return
    known = cls.methods[name]
    returns = node_text(method.child_by_field_name("type"))
    if known is not None and node_text(known.child_by_field_name("type")) != returns:
        cls.methods[name] = None


def member_type_parameters(member: ts.Node | None) -> dict[str, ts.Node | None]:
    """The type parameters a generic method or constructor declares (`<T> T first(List<T> xs)`)."""
    generic = member is not None and member.type in ("method_declaration", "constructor_declaration")
    return type_parameters(member) if member is not None and generic else {}


@dataclass(frozen=True)
class Declared:
    """A variable: the byte it is seen from, its type as stated, or its initial value for `var`."""

    start: int
    type: ts.Node | None
    value: ts.Node | None = None


@dataclass
class Locals:
    """The variables one class member declares (parameters, locals, lambda and pattern variables) and the
    classes it declares locally, whose methods no indexed entity holds."""

    names: LexicalNames[Declared] = field(default_factory=LexicalNames)
    classes: set[str] = field(default_factory=set)

    def lookup(self, name: str, at: int) -> Declared | None:
        """The declaration of `name` visible at byte `at`: the innermost, the latest within a block."""
        found = self.names.find(name, at)
        return found.what if found is not None else None

    def declare(self, name: ts.Node | None, scope: ts.Node | None, start: int, kind: ts.Node | None) -> None:
        if name is None or scope is None:
            return
        value, holder = None, name.parent
        if kind is not None and node_text(kind) == "var":  # `for (var x : xs)` states nothing readable
            kind = None
            if holder is not None and holder.type in ("variable_declarator", "resource"):
                value = holder.child_by_field_name("value")
        self.names.add(node_text(name), (scope.start_byte, scope.end_byte), start, Declared(start, kind, value))


def declarations(member: ts.Node) -> Locals:
    """Every variable declared inside a class member, each with where it is visible (a query, not a walk in
    Python: a member is read for its first call on a variable)."""
    found = Locals()
    for node in ts.QueryCursor(_declaring()).captures(member).get("declares", []):
        _declare(node, found)
    return found


@cache
def _declaring() -> ts.Query:
    kinds = " ".join(f"({kind})" for kind in sorted(_DECLARING | CLASSES))
    return ts.Query(language_for("java"), f"[{kinds}] @declares")


def _declare(node: ts.Node, found: Locals) -> None:
    kind, parent = node.type, node.parent
    if kind == "local_variable_declaration":
        for declarator in node.children_by_field_name("declarator"):
            found.declare(declarator.child_by_field_name("name"), parent, declarator.start_byte, _type(node))
    elif kind in ("formal_parameter", "spread_parameter") and parent is not None:
        declarator = next((c for c in node.named_children if c.type == "variable_declarator"), node)
        name = declarator.child_by_field_name("name")
        kind_node = node.child_by_field_name("type") or next((c for c in node.named_children if _is_type(c)), None)
        found.declare(name, parent.parent, parent.start_byte, kind_node)
    elif kind in ("catch_formal_parameter", "resource", "enhanced_for_statement"):
        scope = node if kind == "enhanced_for_statement" else parent
        if kind == "resource" and parent is not None:
            scope = parent.parent  # the try statement, past its resource specification
        found.declare(node.child_by_field_name("name"), scope, node.start_byte, _type(node) or _caught(node))
    elif kind == "instanceof_expression":
        name = node.child_by_field_name("name")
        found.declare(name, _enclosing_scope(node), node.start_byte, node.child_by_field_name("right"))
    elif kind in ("type_pattern", "record_pattern_component"):
        name = next((c for c in node.named_children if c.type == "identifier"), None)
        kind_node = next((c for c in node.named_children if _is_type(c)), None)
        found.declare(name, _enclosing_scope(node), node.start_byte, kind_node)
    elif kind == "lambda_expression":
        parameters = node.child_by_field_name("parameters")
        if parameters is not None and parameters.type in _LAMBDA_PARAMETERS:
            names = [parameters] if parameters.type == "identifier" else parameters.named_children
            for name in names:
                found.declare(name, node, node.start_byte, None)
    elif kind in CLASSES and node_text(node.child_by_field_name("name")):
        found.classes.add(node_text(node.child_by_field_name("name")))


def _type(node: ts.Node) -> ts.Node | None:
    return node.child_by_field_name("type")


def _caught(node: ts.Node) -> ts.Node | None:
    """The one type a catch clause names; None for a multi-catch (`IOException | TimeoutException e`)."""
    caught = next((c for c in node.named_children if c.type == "catch_type"), None)
    return caught.named_children[0] if caught is not None and caught.named_child_count == 1 else None


def _is_type(node: ts.Node) -> bool:
    return node.type.endswith("_type") or node.type in ("type_identifier", "generic_type", "scoped_type_identifier")


def _enclosing_scope(node: ts.Node) -> ts.Node | None:
    scope = node.parent
    while scope is not None and scope.type not in _SCOPES:
        scope = scope.parent
    return scope
