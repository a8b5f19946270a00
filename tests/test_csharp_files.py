"""C# across files, indexed with the real engines: a property another file's class declares types the calls on it
(`readerModule.StringsStream.ReadNoNull()`), a base class's field in another file, a local declared with `var` typed
by its initializer, a call on what a method states it returns, a static call of the project's class of that name, a
short type name looked up from the caller's namespace first (two classes named `MetaData`), and `new PublicKey()` in
a class with a `PublicKey` property is the class, and an extension method is a member of the type it extends
(`reader.ReadCompressed()`) — never a same-named member of an unrelated class."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import edges_out, indexed_projects
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog

FILES = {
    "src/MD/StringsStream.cs": (
        "namespace Lib.MD {\n"
        "  public sealed class StringsStream {\n"
        "    public string ReadNoNull(uint x) { return null; }\n"
        "  }\n"
        "  public class MetaData {\n    public void Error(string m) { }\n  }\n"
        "}\n"
    ),
    "src/Other.cs": (
        "namespace Lib.Other {\n"
        "  public class Unrelated {\n    public string ReadNoNull(uint x) { return null; }\n  }\n"
        "  public static class Utils {\n    public static uint Align(uint x) { return x; }\n  }\n"
        "}\n"
    ),
    "src/ModuleDefMD.cs": (
        "using Lib.MD;\n"
        "namespace Lib {\n"
        "  public class ModuleBase {\n    protected StringsStream strings;\n  }\n"
        "  public class ModuleDefMD : ModuleBase {\n"
        "    public StringsStream StringsStream { get { return strings; } }\n"
        "    public ModuleDefMD Next() { return this; }\n"
        "  }\n"
        "}\n"
    ),
    "src/Writer/MetaData.cs": (
        "namespace Lib.Writer {\n"
        "  public class MetaData {\n    protected void Error(string m) { }\n  }\n"
        "  public class PublicKey {\n  }\n"
        "}\n"
    ),
    "src/Writer/NormalMetaData.cs": (
        "using Lib.Other;\n"
        "namespace Lib.Writer {\n"
        "  public sealed class NormalMetaData : MetaData {\n"
        "    PublicKey key;\n"
        "    public PublicKey PublicKey { get { return key; } set { key = value ?? new PublicKey(); } }\n"
        "    public void AddTypeRef(Lib.ModuleDefMD module) {\n"
        '      Error("TypeRef is null");\n'
        "      var stream = module.Next().StringsStream;\n"
        "      stream.ReadNoNull(Utils.Align(1));\n"
        "    }\n"
        "  }\n"
        "}\n"
    ),
    "src/IO/Extensions.cs": (
        "namespace Lib.IO {\n"
        "  public interface IBinaryReader {\n    uint ReadUInt32();\n  }\n"
        "  public static class IOExtensions {\n"
        "    public static uint ReadCompressed(this IBinaryReader reader) { return reader.ReadUInt32(); }\n"
        "  }\n"
        "  public class Elsewhere {\n    public uint ReadCompressed() { return 0; }\n  }\n"
        "}\n"
    ),
    "src/Consumer.cs": (
        "using Lib.IO;\n"
        "namespace Lib {\n"
        "  public class Consumer {\n"
        "    public uint Size(IBinaryReader reader) { return reader.ReadCompressed(); }\n"
        "  }\n"
        "}\n"
    ),
    "src/Derived.cs": (
        "using Lib.MD;\n"
        "namespace Lib {\n"
        "  public class Derived : ModuleBase {\n"
        "    public string Name(uint x) { return strings.ReadNoNull(x); }\n"
        "  }\n"
        "}\n"
    ),
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("csharp_files"), {"lib": FILES}, ("lib",))
    yield cat
    cat.close()


def test_a_chain_through_another_file_s_property_and_a_var_local(catalog: Catalog, views: GenerationViews) -> None:
    calls = edges_out(catalog, views, "method:lib:src.Writer.NormalMetaData.NormalMetaData.AddTypeRef")
    calls = {target: how for (kind, target), how in calls.items() if kind == "CALLS"}
    assert calls == {
        "method:lib:src.Writer.MetaData.MetaData.Error": "exact",  # the base of its own namespace, not Lib.MD's
        "method:lib:src.ModuleDefMD.ModuleDefMD.Next": "inferred",
        "method:lib:src.MD.StringsStream.StringsStream.ReadNoNull": "inferred",  # not Unrelated's
        "method:lib:src.Other.Utils.Align": "inferred",  # a static call of the project's one `Utils`
    }


def test_a_base_class_s_field_in_another_file_types_its_calls(catalog: Catalog, views: GenerationViews) -> None:
    calls = edges_out(catalog, views, "method:lib:src.Derived.Derived.Name", relation_types=["CALLS"])
    assert calls == {("CALLS", "method:lib:src.MD.StringsStream.StringsStream.ReadNoNull"): "inferred"}


def test_new_of_a_class_named_like_a_property_is_the_class(catalog: Catalog, views: GenerationViews) -> None:
    calls = edges_out(catalog, views, "method:lib:src.Writer.NormalMetaData.NormalMetaData.PublicKey")
    assert ("CALLS", "class:lib:src.Writer.MetaData.PublicKey") in calls
    assert ("CALLS", "method:lib:src.Writer.NormalMetaData.NormalMetaData.PublicKey") not in calls


def test_an_extension_method_is_a_member_of_the_type_it_extends(catalog: Catalog, views: GenerationViews) -> None:
    calls = edges_out(catalog, views, "method:lib:src.Consumer.Consumer.Size", relation_types=["CALLS"])
    assert calls == {("CALLS", "method:lib:src.IO.Extensions.IOExtensions.ReadCompressed"): "inferred"}
