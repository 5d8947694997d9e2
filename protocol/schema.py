"""The protocol's JSON Schema, generated from its typed definitions.

One source of truth: the messages (``protocol/messages.py``), the client actions
(``protocol/actions.py``), the table's events (``table/events.py``) and the nested objects
(``protocol/shapes.py``) produce ``protocol/schema.json``, the reference part of
docs/protocol.md (:mod:`protocol.schemadoc`) and the browser client's TypeScript types
(:mod:`protocol.schemats`)::

    python -m protocol.schema --write     # regenerate all three
    python -m protocol.schema --check     # exit 1 when a committed copy differs (CI)

Every object is closed (``additionalProperties: false``) except the maps marked ``Open``.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from protocol import shapes as sh
from protocol.actions import ACTIONS, ClientAction
from protocol.messages import CLIENT_MESSAGES, SERVER_MESSAGES, ClientMessage, Message
from table.events import EVENT_CLASSES, EventData
from table.wire import TILE_CODES, TILE_MARK, Doc, MaxLen, Range, Shape, wire_fields

__all__ = ["ROOT", "build_schema", "main"]

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_PATH = ROOT / "protocol" / "schema.json"


def def_name(cls: type) -> str:
    """The ``$defs`` key of a definition."""
    if isinstance(cls, type) and issubclass(cls, Message):
        side = "client" if issubclass(cls, ClientMessage) else "server"
        return f"{side}.{cls.type}"
    if isinstance(cls, type) and issubclass(cls, ClientAction):
        return f"action.{cls.TYPE}"
    if isinstance(cls, type) and issubclass(cls, EventData):
        forms = [c for c in EVENT_CLASSES if c.TYPE == cls.TYPE]
        return f"event.{cls.TYPE}" if len(forms) == 1 else f"event.{cls.TYPE}.{cls.__name__}"
    if isinstance(cls, type) and issubclass(cls, sh.Notice):
        return f"notice.{cls.TYPE}"
    return cls.__name__.removesuffix("JSON")


#: base classes that stand for the union of their definitions
UNIONS: dict[type, tuple[str, tuple[type, ...]]] = {
    ClientAction: ("Action", tuple(ACTIONS.values())),
    EventData: ("Event", EVENT_CLASSES),
    sh.Notice: ("Notice", sh.NOTICES),
}


class _Builder:
    def __init__(self) -> None:
        self.defs: dict[str, Any] = {}

    def ref(self, cls: Any) -> dict[str, Any]:
        if isinstance(cls, types.UnionType) or typing.get_origin(cls) is Union:
            return {"anyOf": [self.ref(c) for c in typing.get_args(cls)]}
        if cls in UNIONS:
            name, members = UNIONS[cls]
            if name not in self.defs:
                self.defs[name] = {}  # reserve (recursion)
                self.defs[name] = {"oneOf": [self.ref(c) for c in members]}
            return {"$ref": f"#/$defs/{name}"}
        name = def_name(cls)
        if name not in self.defs:
            self.defs[name] = {}
            self.defs[name] = self.obj(cls)
        return {"$ref": f"#/$defs/{name}"}

    def obj(self, cls: type) -> dict[str, Any]:
        props: dict[str, Any] = {}
        required: list[str] = []
        tag = getattr(cls, "TYPE", None) or (cls.type if issubclass(cls, Message) else None)
        if tag:
            props["type"] = {"const": tag}
            required.append("type")
        meta = {f.name: f.metadata for f in dataclasses.fields(cls)}
        for f in wire_fields(cls):
            marks = list(f.marks)
            m: Mapping[str, Any] = meta.get(f.name) or {}
            if m.get("max_len") is not None:
                marks.append(MaxLen(m["max_len"]))
            if m.get("lo") is not None or m.get("hi") is not None:
                marks.append(Range(m.get("lo"), m.get("hi")))
            s = self.type(f.tp, tuple(marks))
            doc = next((x.text for x in marks if isinstance(x, Doc)), None) or m.get("doc")
            if doc:
                s = {**s, "description": doc}
            props[f.wire] = s
            if f.required:
                required.append(f.wire)
        out: dict[str, Any] = {
            "type": "object",
            "properties": props,
            "required": required,
            "additionalProperties": False,
        }
        text = getattr(cls, "DOC", "") or (cls.__doc__ or "").strip().split("\n\n")[0]
        if text and not text.startswith(cls.__name__ + "("):
            out["description"] = " ".join(text.split())
        return out

    def type(self, tp: Any, marks: tuple[Any, ...]) -> dict[str, Any]:
        if typing.get_origin(tp) is Annotated:
            base, *more = typing.get_args(tp)
            return self.type(base, (*marks, *more))
        shape = next((x for x in marks if isinstance(x, Shape)), None)
        origin = typing.get_origin(tp)
        args = typing.get_args(tp)
        if origin in (Union, types.UnionType):
            rest = [a for a in args if a is not type(None)]
            inner = (
                self.type(rest[0], marks)
                if len(rest) == 1
                else {"anyOf": [self.type(a, marks) for a in rest]}
            )
            if len(rest) == len(args):
                return inner
            return {"anyOf": [inner, {"type": "null"}]}
        if origin is Literal:
            return {"const": args[0]} if len(args) == 1 else {"enum": list(args)}
        if origin is list:
            return {"type": "array", "items": self.type(args[0], marks)}
        if tp is dict or origin is dict:
            if shape is not None:
                return self.ref(shape.cls)
            return {"type": "object"}  # a map with free keys (``Open``)
        if dataclasses.is_dataclass(tp):
            return self.ref(tp)
        if tp is str:
            if any(x is TILE_MARK for x in marks):
                return {"$ref": "#/$defs/Tile"}
            out: dict[str, Any] = {"type": "string"}
            ml = next((x for x in marks if isinstance(x, MaxLen)), None)
            if ml is not None:
                out["maxLength"] = ml.n
            return out
        if tp is bool:
            return {"type": "boolean"}
        if tp is int:
            out = {"type": "integer"}
            rg = next((x for x in marks if isinstance(x, Range)), None)
            if rg is not None and rg.lo is not None:
                out["minimum"] = rg.lo
            if rg is not None and rg.hi is not None:
                out["maximum"] = rg.hi
            return out
        if tp is float:
            return {"type": "number"}
        if tp is type(None) or tp is None:
            return {"type": "null"}
        if tp is Any:
            return {}
        if tp in UNIONS:
            return self.ref(tp)
        raise TypeError(f"no schema for {tp!r}")  # a definition uses an unsupported type


def build_schema() -> dict[str, Any]:
    b = _Builder()
    b.defs["Tile"] = {
        "description": "a tile code: 1m…9m, 1p…9p, 1s…9s, winds we ws ww wn, dragons dr dg "
        "dw, flowers f1…f8 (f1–f4 seasons, f5–f8 plants)",
        "enum": list(TILE_CODES),
    }
    client = [b.ref(c) for c in CLIENT_MESSAGES.values()]
    server = [b.ref(c) for c in SERVER_MESSAGES.values()]
    b.ref(ClientAction)
    b.ref(EventData)
    b.ref(sh.Notice)
    b.defs["ClientMessage"] = {"oneOf": client}
    b.defs["ServerMessage"] = {"oneOf": server}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "mahjong-table wire protocol, version 1",
        "description": "Every frame is one msgpack map: a ClientMessage from a client, a "
        "ServerMessage from the server. Generated by `python -m protocol.schema` from the "
        "typed definitions; docs/protocol.md explains it.",
        "$defs": dict(sorted(b.defs.items())),
    }


def schema_text() -> str:
    return json.dumps(build_schema(), indent=1, ensure_ascii=False) + "\n"


def _outputs() -> dict[Path, str]:
    from protocol import schemadoc, schemats

    schema = build_schema()
    doc_path = ROOT / "docs" / "protocol.md"
    return {
        SCHEMA_PATH: json.dumps(schema, indent=1, ensure_ascii=False) + "\n",
        doc_path: schemadoc.splice(doc_path.read_text(encoding="utf-8"), schema),
        schemats.TS_PATH: schemats.render(schema),
    }


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    write = "--write" in args
    stale = []
    for path, text in _outputs().items():
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old == text:
            continue
        if write:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
        else:
            stale.append(path)
    for path in stale:
        print(
            f"{path.relative_to(ROOT)} differs from what the definitions generate: "
            "run python -m protocol.schema --write",
            file=sys.stderr,
        )
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
