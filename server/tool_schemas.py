"""The tool schemas as `tools/list` sends them, which every client session loads (and many put before the model):
only what a client needs to call a tool and check its answer. Pydantic's schemas carry the docstrings of the
result models and a title and default for every field; those were 49K of the listing's 62K characters.

- Output schemas keep their structure (types, required fields, enums, references) and drop their prose (each
  tool's description says what it returns), titles, defaults and OpenAPI's `discriminator` (not JSON Schema; the
  `const` of each union member tells them apart).
- Input schemas keep every argument's description, and their fields' (what the model reads to call the tool),
  and drop the titles pydantic derives from the names, the docstrings of the types they reference and
  `"default": null` (an argument not required is null when not given).
- `{"anyOf": [{"type": "string"}, {"type": "null"}]}` is written `{"type": ["string", "null"]}`, the same schema;
  so is a nullable array or map (`{"items": ..., "type": ["array", "null"]}`: its other keywords apply to arrays
  only, so a null passes them).
"""

from __future__ import annotations

from typing import Any

from mcp_types import Tool

PROSE = ("description", "title")
# Keywords that constrain instances of one type only (a null passes them), so `{"anyOf": [X, {"type": "null"}]}` is
# X with "null" added to its type when X holds no others.
TYPED_KEYWORDS = frozenset(
    {"type", "items", "maxItems", "minItems", "additionalProperties", "propertyNames", "properties", "required"}
    | {"minimum", "maximum", "minLength", "maxLength", "pattern"}
)
NULL = {"type": "null"}


def listed(tool: Tool) -> Tool:
    """The tool as the listing sends it."""
    update: dict[str, Any] = {"input_schema": _input(tool.input_schema)}
    if tool.output_schema is not None:
        update["output_schema"] = _output(tool.output_schema)
    return tool.model_copy(update=update)


def _output(schema: Any) -> Any:
    return _collapsed(_without(schema, lambda key: key in (*PROSE, "default", "discriminator")))


def _input(schema: dict[str, Any]) -> dict[str, Any]:
    kept = _without_null_defaults(_without(schema, lambda key: key == "title"))
    for name, definition in kept.get("$defs", {}).items():  # each type's docstring; its fields keep theirs
        kept["$defs"][name] = {key: value for key, value in definition.items() if key != "description"}
    result: dict[str, Any] = _collapsed(kept)
    return result


def _without(node: Any, dropped: Any) -> Any:
    """The schema without the keys `dropped` names where they hold text, a default or a discriminator (a property
    that happens to be named `title` or `description` is kept: its value is a schema, not text)."""
    if isinstance(node, dict):
        return {
            key: _without(value, dropped)
            for key, value in node.items()
            if not (dropped(key) and (isinstance(value, str) or key in ("default", "discriminator")))
        }
    if isinstance(node, list):
        return [_without(value, dropped) for value in node]
    return node


def _without_null_defaults(node: Any) -> Any:
    """`"default": null` left out: an argument not required is null when not given."""
    if isinstance(node, list):
        return [_without_null_defaults(value) for value in node]
    if not isinstance(node, dict):
        return node
    return {k: _without_null_defaults(v) for k, v in node.items() if not (k == "default" and v is None)}


def _collapsed(node: Any) -> Any:
    """Unions of plain types written as one `type` list, and a nullable array, map or number as its schema with
    "null" among its types."""
    if isinstance(node, list):
        return [_collapsed(value) for value in node]
    if not isinstance(node, dict):
        return node
    options = node.get("anyOf")
    if isinstance(options, list) and all(isinstance(o, dict) and set(o) == {"type"} for o in options):
        types = [o["type"] for o in options]
        if all(isinstance(t, str) for t in types):
            node = {**{k: v for k, v in node.items() if k != "anyOf"}, "type": types}
    elif isinstance(options, list) and len(options) == 2 and options[1] == NULL and _one_type(options[0]):
        node = {**{k: v for k, v in node.items() if k != "anyOf"}, **options[0], "type": [options[0]["type"], "null"]}
    return {key: _collapsed(value) for key, value in node.items()}


def _one_type(schema: Any) -> bool:
    """Whether a schema is of one type and holds only keywords that constrain that type alone."""
    return isinstance(schema, dict) and isinstance(schema.get("type"), str) and set(schema) <= TYPED_KEYWORDS
