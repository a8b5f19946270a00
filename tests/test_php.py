"""PHP with structure: classes, interfaces, traits and enums with their methods, and top-level functions, as
entities; `/** */` docs as descriptions; `use` declarations as imports; `extends`, traits and `implements` as bases,
a trait's methods found before an interface's declaration of them; calls bound where the file proves them
(`$this->`, `self::`, `static::`, `parent::`, the file's own types and functions, typed properties and parameters),
the rest by name: a guess kept only
where one entity has the name, so a same-named method of an unrelated class is never a target; a class of another
file by the name its `use` or the file's namespace gives it. A small real-shaped project of two files, indexed with
the real engines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import edges_out, indexed_projects
from trident.ingest.walker import FILE_TYPES
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.schema import DocumentKind

HANDLERS = """<?php
namespace Shop\\Log;

interface Formattable
{
    public function format(array $record): string;
}

trait FormatsLines
{
    /** Formats one record as a line. */
    public function format(array $record): string
    {
        return implode(' ', $record);
    }
}

abstract class Handler implements Formattable
{
    use FormatsLines;

    public function handle(array $record): bool
    {
        $line = $this->format($record);
        return static::write($line);
    }

    abstract protected function write(string $line): bool;
}

class FileHandler extends Handler
{
    protected function write(string $line): bool
    {
        return write_line($line) > 0;
    }
}

function write_line(string $line): int
{
    return strlen($line);
}
"""
ORDERS = """<?php
namespace Shop\\Billing;

use Shop\\Log\\FileHandler;

class OrderService
{
    public function __construct(private FileHandler $log) {}

    public function checkout(array $order): void
    {
        $this->log->handle($order);
        self::audit($order);
        $mailer = new Mailer();
        $fallback = new FileHandler();  // another file's class, by its `use`
    }

    private static function audit(array $order): void {}

    public function relay($any, array $order): void
    {
        $any->handle($order);
    }
}

class Mailer
{
    public function handle(array $message): void {}
}
"""
FILES = {"src/Log/Handlers.php": HANDLERS, "src/Billing/OrderService.php": ORDERS}
LOG = "src.Log.Handlers"
BILLING = "src.Billing.OrderService"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("php"), {"shop": FILES}, ("shop",))
    yield cat
    cat.close()


def test_a_php_file_is_code_with_a_grammar() -> None:
    assert FILE_TYPES[".php"] == (DocumentKind.CODE, "php")


def test_types_functions_and_methods_are_entities(catalog: Catalog) -> None:
    found = {(e.type, e.qualified_name) for e in catalog.entities() if e.qualified_name.startswith("src.")}
    assert {
        ("Class", f"{LOG}.Formattable"),
        ("Class", f"{LOG}.FormatsLines"),
        ("Method", f"{LOG}.FormatsLines.format"),
        ("Class", f"{LOG}.Handler"),
        ("Method", f"{LOG}.Handler.handle"),
        ("Class", f"{LOG}.FileHandler"),
        ("Function", f"{LOG}.write_line"),
        ("Method", f"{BILLING}.OrderService.__construct"),
    } <= found
    trait_format = next(e for e in catalog.entities() if e.qualified_name == f"{LOG}.FormatsLines.format")
    assert trait_format.description == "Formats one record as a line."


def test_calls_bind_to_the_classs_own_members_its_traits_and_the_files_functions(
    catalog: Catalog, views: GenerationViews
) -> None:
    assert edges_out(catalog, views, f"method:shop:{LOG}.Handler.handle", relation_types=["CALLS"]) == {
        ("CALLS", f"method:shop:{LOG}.FormatsLines.format"): "exact",  # the trait's, not the interface's declaration
        ("CALLS", f"method:shop:{LOG}.Handler.write"): "exact",  # `static::write`
        ("CALLS", f"method:shop:{LOG}.FileHandler.write"): "dispatch",  # the override that runs for a FileHandler
    }
    assert edges_out(catalog, views, f"method:shop:{LOG}.FileHandler.write", relation_types=["CALLS"]) == {
        ("CALLS", f"function:shop:{LOG}.write_line"): "exact",  # a bare call is a function, never a method
    }


def test_across_files_a_class_is_named_by_its_namespace_and_a_typed_receiver_by_its_type(
    catalog: Catalog, views: GenerationViews
) -> None:
    # `private FileHandler $log` (a promoted constructor parameter) types `$this->log`: Handler's `handle`, which
    # FileHandler inherits, and never Mailer's
    assert edges_out(catalog, views, f"method:shop:{BILLING}.OrderService.checkout", relation_types=["CALLS"]) == {
        ("CALLS", f"method:shop:{LOG}.Handler.handle"): "inferred",
        ("CALLS", f"method:shop:{BILLING}.OrderService.audit"): "exact",
        ("CALLS", f"class:shop:{BILLING}.Mailer"): "exact",
        ("CALLS", f"class:shop:{LOG}.FileHandler"): "exact",  # `Shop\\Log\\FileHandler`, in `Handlers.php`
    }
    # an untyped `$any->handle()`: two classes have a `handle`, so nothing is guessed
    assert edges_out(catalog, views, f"method:shop:{BILLING}.OrderService.relay", relation_types=["CALLS"]) == {}
    assert edges_out(catalog, views, f"class:shop:{LOG}.FileHandler", relation_types=["INHERITS"]) == {
        ("INHERITS", f"class:shop:{LOG}.Handler"): "exact",
    }
