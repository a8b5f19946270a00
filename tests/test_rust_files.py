"""Rust across files, indexed with the real engines: a field of a struct another file declares types the calls on it
(`self.pre.is_empty()` in `display.rs`, `pre: Prerelease` in `lib.rs`), an `impl` in another module gives the type
its methods (`Version::from_str` with `impl FromStr for Version` in `parse.rs`), an integration test is a crate of
its own whose `use crate::util::*;` brings `tests/util/mod.rs`'s functions, and a same-named method of an unrelated
type is never the target."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import edges_out, indexed_projects
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog

FILES = {
    "src/lib.rs": (
        "mod display;\nmod parse;\n\n"
        "pub struct Prerelease { id: u32 }\n\n"
        "impl Prerelease {\n    pub fn is_empty(&self) -> bool { self.id == 0 }\n}\n\n"
        "pub struct Other;\n\n"
        "impl Other {\n    pub fn is_empty(&self) -> bool { true }\n}\n\n"
        "pub struct Version { pub pre: Prerelease }\n\n"
        "impl Version {\n    pub fn parse(text: &str) -> Version { Version::from_str(text) }\n}\n"
    ),
    "src/parse.rs": (
        "use crate::{Prerelease, Version};\nuse std::str::FromStr;\n\n"
        "impl FromStr for Version {\n"
        "    fn from_str(text: &str) -> Version { Version { pre: Prerelease { id: 1 } } }\n"
        "}\n"
    ),
    "src/display.rs": (
        "use crate::Version;\n\nimpl Version {\n    pub fn plain(&self) -> bool { self.pre.is_empty() }\n}\n"
    ),
    "tests/util/mod.rs": "use semver::Version;\n\npub fn version(text: &str) -> Version { Version::parse(text) }\n",
    "tests/test_version.rs": (
        'mod util;\n\nuse crate::util::*;\n\n#[test]\nfn test_plain() {\n    assert!(version("1.0.0").plain());\n}\n'
    ),
    "tests/other/util.rs": "pub fn version(text: &str) -> u32 { 0 }\n",
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("rust_files"), {"semver": FILES}, ("semver",))
    yield cat
    cat.close()


def test_a_field_of_a_struct_another_file_declares_types_its_calls(catalog: Catalog, views: GenerationViews) -> None:
    calls = edges_out(catalog, views, "method:semver:src.display.Version.plain", relation_types=["CALLS"])
    assert calls == {("CALLS", "method:semver:src.lib.Prerelease.is_empty"): "inferred"}  # not Other's


def test_an_impl_in_another_module_gives_the_type_its_method(catalog: Catalog, views: GenerationViews) -> None:
    calls = edges_out(catalog, views, "method:semver:src.lib.Version.parse", relation_types=["CALLS"])
    assert calls == {("CALLS", "method:semver:src.parse.Version.from_str"): "exact"}


def test_an_integration_test_s_glob_import_brings_its_own_module_s_functions(
    catalog: Catalog, views: GenerationViews
) -> None:
    calls = edges_out(catalog, views, "function:semver:tests.test_version.test_plain", relation_types=["CALLS"])
    # the `version` of `tests/util/mod.rs` (the test crate's `crate::util`), not `tests/other/util.rs`'s; the call
    # inside `assert!` is a call
    assert calls[("CALLS", "function:semver:tests.util.mod.version")] == "inferred"
    assert "function:semver:tests.other.util.version" not in {target for _, target in calls}
