"""A class of several bases takes each method from the first base, in the order it writes them, that has it: sqlparse's
`class Identifier(NameAliasMixin, TokenList)` runs NameAliasMixin's `get_alias` where TokenList's own code calls
`self.get_alias()` on an Identifier, so that call reaches it by dispatch; written the other way round
(`class Alias(TokenList, NameAliasMixin)`), TokenList's own runs and the mix-in's is reached by no call. Indexed with
the real engines, as a client reads the edges."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_edges

SQL = {
    "sq/__init__.py": "",
    "sq/mixins.py": ("class NameAliasMixin:\n    def get_alias(self):\n        return 'mixed in'\n"),
    "sq/sql.py": (
        "from sq.mixins import NameAliasMixin\n\n\n"
        "class TokenList:\n"
        "    def get_alias(self):\n"
        "        return None\n\n"
        "    def get_name(self):\n"
        "        return self.get_alias()\n\n\n"
        "class Identifier(NameAliasMixin, TokenList):\n"
        "    pass\n\n\n"
        "class Alias(TokenList, NameAliasMixin):\n"
        "    pass\n"
    ),
}


def test_a_mixin_written_before_a_base_shadows_its_method_and_a_call_of_the_base_method_reaches_it(
    tmp_path: Path,
) -> None:
    mixin, base = "method:sq:sq.mixins.NameAliasMixin.get_alias", "method:sq:sq.sql.TokenList.get_name"
    found = project_edges(tmp_path, "sq", SQL, [base, mixin], relation_types=["CALLS", "OVERRIDES"])
    calls, overrides = found[base], found[mixin]
    assert calls.get(("CALLS", "sq.sql.TokenList.get_alias")) == "exact"
    assert calls.get(("CALLS", "sq.mixins.NameAliasMixin.get_alias")) == "dispatch"  # on an Identifier
    assert overrides == {("OVERRIDES", "sq.sql.TokenList.get_alias"): "exact"}  # in Identifier, not in Alias


def test_a_mixin_written_after_the_base_is_shadowed_by_it_and_reached_by_no_call(tmp_path: Path) -> None:
    files = {
        **SQL,
        "sq/sql.py": SQL["sq/sql.py"].split("class Identifier")[0]
        + "class Alias(TokenList, NameAliasMixin):\n    pass\n",
    }
    mixin, base = "method:sq:sq.mixins.NameAliasMixin.get_alias", "method:sq:sq.sql.TokenList.get_name"
    found = project_edges(tmp_path, "sq", files, [base, mixin], relation_types=["CALLS", "OVERRIDES"])
    assert ("CALLS", "sq.mixins.NameAliasMixin.get_alias") not in found[base]
    assert found[mixin] == {}  # Alias takes TokenList's: the mix-in's overrides nothing there
