"""The reference part of docs/protocol.md, rendered from the generated JSON Schema.

:func:`splice` puts the tables between the document's ``BEGIN GENERATED REFERENCE`` and
``END GENERATED REFERENCE`` markers (the rest of the document is written by hand).
"""

from __future__ import annotations

from typing import Any

__all__ = ["BEGIN", "END", "render", "splice"]

BEGIN = "<!-- BEGIN GENERATED REFERENCE (python -m protocol.schema --write) -->"
END = "<!-- END GENERATED REFERENCE -->"

#: (heading, $defs key prefix or exact names) in the order of the reference
GROUPS: tuple[tuple[str, str], ...] = (
    ("Client messages", "client."),
    ("Server messages", "server."),
    ("Game actions (`action.action`, `legal` entries)", "action."),
    ("Events (`events.events`)", "event."),
    ("Notices (`events.notice`)", "notice."),
)


def anchor(name: str) -> str:
    return "ref-" + name.replace(".", "-").replace("_", "-").lower()


def _link(name: str) -> str:
    return f"[{name}](#{anchor(name)})"


def type_text(node: dict[str, Any]) -> str:
    """A short, readable type for a schema node."""
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[1]
        return "tile" if name == "Tile" else _link(name)
    if "anyOf" in node:
        parts = node["anyOf"]
        if len(parts) == 2 and parts[1] == {"type": "null"}:
            return f"{type_text(parts[0])} or null"
        return " or ".join(type_text(p) for p in parts)
    if "oneOf" in node:
        return " or ".join(type_text(p) for p in node["oneOf"])
    if "const" in node:
        return f"`{_json(node['const'])}`"
    if "enum" in node:
        return " \\| ".join(f"`{_json(v)}`" for v in node["enum"])
    t = node.get("type")
    if t == "array":
        return f"[{type_text(node['items'])}]"
    if t == "integer":
        lo, hi = node.get("minimum"), node.get("maximum")
        if lo is not None and hi is not None:
            return f"int {lo}–2⁵³" if hi == 2**53 else f"int {lo}–{hi}"
        return f"int ≥ {lo}" if lo is not None else "int"
    if t == "string":
        return f"str ≤ {node['maxLength']}" if "maxLength" in node else "str"
    if t == "object":
        return "map"
    if t in ("boolean", "number", "null"):
        return {"boolean": "bool", "number": "number", "null": "null"}[t]
    return "any"


def _json(v: Any) -> str:
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    return f'"{v}"' if isinstance(v, str) else str(v)


def _table(name: str, node: dict[str, Any]) -> list[str]:
    out = [f'<a id="{anchor(name)}"></a>', f"#### `{name}`", ""]
    if node.get("description"):
        out += [node["description"], ""]
    if "oneOf" in node:
        out += ["One of: " + ", ".join(type_text(p) for p in node["oneOf"]) + ".", ""]
        return out
    if "enum" in node:
        out += ["Values: " + " ".join(f"`{v}`" for v in node["enum"]) + ".", ""]
        return out
    props = node.get("properties", {})
    if not props:
        return out
    required = set(node.get("required", ()))
    out += ["| field | type | required | meaning |", "|---|---|---|---|"]
    for key, p in props.items():
        req = "yes" if key in required else ""
        out.append(f"| `{key}` | {type_text(p)} | {req} | {p.get('description', '')} |")
    return [*out, ""]


def ruleset_table() -> list[str]:
    """Which actions (and windows) each rule set has, from the table's parameters."""
    from table.params import PARAMS

    def yes(b: bool) -> str:
        return "yes" if b else "—"

    out = [
        "### Actions by rule set",
        "",
        "Every rule set has `discard`, `concealed_kong`, `added_kong`, `win`, `pass`, `pung` "
        "and `kong`. The others, and the windows and events that depend on the rule set "
        "(the `house_rules` of a room may change them: docs/table.md):",
        "",
        "| rule set | `chow` | `ting` (叮) | robbing window (`kong_declared`) | flowers | "
        "`instant` events |",
        "|---|---|---|---|---|---|",
    ]
    for name in sorted(PARAMS):
        p = PARAMS[name]
        out.append(
            f"| `{name}` | {yes(p.chow)} | {yes(p.ting)} | {yes(p.robbing_kong)} | "
            f"{yes(p.flowers)} | {yes(p.instant)} |"
        )
    return [*out, ""]


def render(schema: dict[str, Any]) -> str:
    defs: dict[str, Any] = schema["$defs"]
    lines = [
        "The tables below are generated from the typed definitions, as is "
        "[`protocol/schema.json`](../protocol/schema.json) (JSON Schema 2020-12): a frame "
        "from a client is a `ClientMessage`, from the server a `ServerMessage`. A field not "
        "required may be left out (or nil); no other field is allowed, except in the maps "
        "marked `map`.",
        "",
    ]
    lines += ruleset_table()
    done: set[str] = set()
    for heading, prefix in GROUPS:
        lines += [f"### {heading}", ""]
        for name in sorted(n for n in defs if n.startswith(prefix)):
            lines += _table(name, defs[name])
            done.add(name)
    lines += ["### Objects and unions", ""]
    for name in sorted(n for n in defs if n not in done):
        lines += _table(name, defs[name])
    return "\n".join(lines).rstrip() + "\n"


def splice(doc: str, schema: dict[str, Any]) -> str:
    """``doc`` with its generated reference replaced (appended when it has none)."""
    body = render(schema)
    if BEGIN in doc and END in doc:
        head, rest = doc.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        return f"{head}{BEGIN}\n\n{body}\n{END}{tail}"
    return f"{doc.rstrip()}\n\n## 12. Reference\n\n{BEGIN}\n\n{body}\n{END}\n"
