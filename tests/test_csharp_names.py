"""C# names as the shared resolver reads them where a file gives two types one name, and where a receiver is a static
field of a type of the file: what the binder says of each call, against the code's own scoping."""

from __future__ import annotations

from trident.ingest.code import parse_code
from trident.ingest.model import TargetForm

PATH = "src/Streams.cs"
MODULE = "src.Streams"

TWO_HEADERS = """namespace Acme.Streams
{
    class ClrStream20
    {
        class Header { public void Read() { } }
        void Load() { var h = new Header(); h.Read(); }
    }

    class ClrStream40
    {
        class Header { public void Read() { } }
        void Load() { new Header(); }
    }

    class Clock
    {
        public static Clock Never = new Clock();
        public void Tick() { }
    }

    class Timer
    {
        void Stop() { Clock.Never.Tick(); }
    }
}
"""


def _calls(caller: str) -> set[tuple[str, str, str]]:
    """(form, owner, target) of each call the method `caller` makes, names without the module."""
    references = parse_code("shop", PATH, TWO_HEADERS, "csharp", "doc").references
    return {
        (r.form.value, r.owner.removeprefix(f"{MODULE}."), r.target.removeprefix(f"{MODULE}."))
        for r in references
        if r.type == "CALLS" and r.source.endswith(f"{MODULE}.{caller}")
    }


def test_a_nested_type_is_the_one_of_the_enclosing_type_not_another_s_of_its_name() -> None:
    assert ("qualified", "", "ClrStream20.Header") in _calls("ClrStream20.Load")
    assert ("member", "ClrStream20.Header", "Read") in _calls("ClrStream20.Load")
    assert _calls("ClrStream40.Load") == {("qualified", "", "ClrStream40.Header")}


def test_a_static_field_of_a_type_of_the_file_is_read_for_what_it_holds() -> None:
    calls = _calls("Timer.Stop")
    assert calls == {(TargetForm.MEMBER.value, "Clock@Never", "Tick")}, calls
