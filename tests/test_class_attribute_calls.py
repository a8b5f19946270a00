"""A method of what a class attribute holds, called through the class (`Char.tag_set.tag_implicitly(...)`,
`Model.objects.filter(...)`): bound to the method of the class the attribute holds, as the class or a base states it."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

TAGS = {
    "tags/__init__.py": "",
    "tags/tag.py": (
        "class TagSet:\n"
        "    def tag_implicitly(self, number):\n"
        "        return TagSet()\n\n\n"
        "def init_tag_set(number):\n"
        "    return TagSet()\n"
    ),
    "tags/types.py": (
        "from .tag import TagSet, init_tag_set\n\n\n"
        "class Base:\n"
        "    tag_set = init_tag_set(4)\n\n"
        "    def copy(self):\n"
        "        return self\n\n\n"
        "class Char(Base):\n"
        "    pass\n"
    ),
    "tags/strings.py": (
        "from .types import Char\n\n\n"
        "class Visible(Char):\n"
        "    tag_set = Char.tag_set.tag_implicitly(26)\n\n\n"
        "def tagged():\n"
        "    return Char.tag_set.tag_implicitly(1)\n"
    ),
}


def test_a_method_of_what_a_class_attribute_holds_is_called_through_the_class(tmp_path: Path) -> None:
    # `Char.tag_set.tag_implicitly(...)`: `tag_set` is an attribute a base's body gives an instance of `TagSet` (by a
    # function returning one), so the call runs `TagSet.tag_implicitly`, from a class body or a function
    calls = project_calls(tmp_path, "tags", TAGS)
    method = "tags.tag.TagSet.tag_implicitly"
    assert calls[("tags.strings.tagged", method)] == "inferred"
    assert calls[("tags.strings.Visible", method)] == "inferred"
