"""The Java tree as the binder reads it: type names as written, the variables a method declares and where each
is visible, type parameters and supertypes, and the JDK names that no indexed project defines."""

from __future__ import annotations

import re
from functools import cache

import tree_sitter as ts

from trident.ingest.languages import language_for, node_text
from trident.ingest.languages.scope_rules import OUTSIDE, Local

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


def declarations(member: ts.Node) -> list[Local]:
    """Every variable declared inside a class member (parameters, locals, lambda and pattern variables, `try`
    resources), each with where it is visible (a query, not a walk in Python)."""
    found: list[Local] = []
    for node in ts.QueryCursor(_declaring()).captures(member).get("declares", []):
        _declare(node, found)
    return found


def _note(found: list[Local], name: ts.Node | None, scope: ts.Node | None, start: int, kind: ts.Node | None) -> None:
    """A variable: `var` states no type, so its value (a declarator's or resource's) is what it is."""
    if name is None or scope is None:
        return
    value, holder = None, name.parent
    if kind is not None and node_text(kind) == "var":  # `for (var x : xs)` states nothing readable
        kind = None
        if holder is not None and holder.type in ("variable_declarator", "resource"):
            value = holder.child_by_field_name("value")
    found.append(Local(node_text(name), (scope.start_byte, scope.end_byte), start, kind, value))


@cache
def _declaring() -> ts.Query:
    kinds = " ".join(f"({kind})" for kind in sorted(_DECLARING))
    return ts.Query(language_for("java"), f"[{kinds}] @declares")


def _declare(node: ts.Node, found: list[Local]) -> None:
    kind, parent = node.type, node.parent
    if kind == "local_variable_declaration":
        for declarator in node.children_by_field_name("declarator"):
            _note(found, declarator.child_by_field_name("name"), parent, declarator.start_byte, _type(node))
    elif kind in ("formal_parameter", "spread_parameter") and parent is not None:
        declarator = next((c for c in node.named_children if c.type == "variable_declarator"), node)
        name = declarator.child_by_field_name("name")
        kind_node = node.child_by_field_name("type") or next((c for c in node.named_children if _is_type(c)), None)
        _note(found, name, parent.parent, parent.start_byte, kind_node)
    elif kind in ("catch_formal_parameter", "resource", "enhanced_for_statement"):
        scope = node if kind == "enhanced_for_statement" else parent
        if kind == "resource" and parent is not None:
            scope = parent.parent  # the try statement, past its resource specification
        _note(found, node.child_by_field_name("name"), scope, node.start_byte, _type(node) or _caught(node))
    elif kind == "instanceof_expression":
        name = node.child_by_field_name("name")
        _note(found, name, _enclosing_scope(node), node.start_byte, node.child_by_field_name("right"))
    elif kind in ("type_pattern", "record_pattern_component"):
        name = next((c for c in node.named_children if c.type == "identifier"), None)
        kind_node = next((c for c in node.named_children if _is_type(c)), None)
        _note(found, name, _enclosing_scope(node), node.start_byte, kind_node)
    elif kind == "lambda_expression":
        parameters = node.child_by_field_name("parameters")
        if parameters is not None and parameters.type in _LAMBDA_PARAMETERS:
            names = [parameters] if parameters.type == "identifier" else parameters.named_children
            for name in names:
                _note(found, name, node, node.start_byte, None)


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
