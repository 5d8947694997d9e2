"""How each game event and room notice changes the client's view of a room: one small function per event.

:func:`apply_event` looks the event's type up in :data:`REDUCERS`; each reducer gets an
:class:`Ev` (the room, the event, the game and hand views, the seat the event is about) and
returns the narration lines for the log (:func:`apply_notice` does the same for a commit's
``notice``: joined, left, kicked, paused, …). A reducer that finds the event does not fit the
view raises :class:`MalformedMessage`; the model then resynchronises the room.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from clients.cli.i18n import has, lang, pay_reason, tr
from clients.cli.tiles import flower_name, sort_tiles

if TYPE_CHECKING:
    from clients.cli.model import RoomState

JSON = dict[str, Any]

__all__ = ["REDUCERS", "Ev", "MalformedMessage", "apply_event", "apply_notice"]


class MalformedMessage(Exception):
    """A server message that does not fit the model: the room is resynchronised."""


@dataclass(slots=True)
class Ev:
    """One event being applied to one room."""

    r: RoomState
    e: JSON
    g: JSON  # the game view
    h: JSON  # the hand view
    s: Any  # the view of the seat the event is about (None: not a seat event)
    name: str  # that seat's player's name
    mine: bool  # the event is about our own seat

    @property
    def seats(self) -> list[JSON]:
        seats: list[JSON] = self.h["seats"]
        return seats


#: events that are about one seat (``seat`` is required)
SEAT_EVENTS = frozenset({"dealt", "draw", "flower", "discard", "ting", "claimed", "kong"})


def apply_event(r: RoomState, e: JSON) -> list[str]:
    """Apply one game event to the room's game view; the narration lines."""
    g = r.game
    if g is None:  # pragma: no cover - the caller checks
        raise MalformedMessage("a game event outside a game")
    t = e.get("type")
    if t == "hand_started":
        return _hand_started(r, e, g)
    h = g.get("hand")
    if h is None:
        if t == "game_over":
            g["phase"] = "game_over"
            g["scores"] = list(e.get("scores") or g.get("scores") or [])
        return []
    seat = e.get("seat")
    s: Any = None
    if isinstance(seat, int) and not isinstance(seat, bool):
        if not 0 <= seat < len(h["seats"]):
            raise MalformedMessage(f"{t} event for seat {seat}: no such seat")
        s = h["seats"][seat]
    if t in SEAT_EVENTS and s is None:
        raise MalformedMessage(f"{t} event without a seat")
    reducer = REDUCERS.get(str(t))
    if reducer is None:
        return []  # an event this client does not know: nothing to show
    name = r.name_of(seat) if isinstance(seat, int) else ""
    mine = r.seat is not None and seat == r.seat
    return reducer(Ev(r, e, g, h, s, name, mine))


def _hand_started(r: RoomState, e: JSON, g: JSON) -> list[str]:
    g["phase"] = "turn"
    g["dealer"] = e["dealer"]
    g["round_wind"] = e.get("round_wind", g.get("round_wind"))
    g["streak"] = e.get("streak", 0)
    winds = e.get("seat_winds") or ["we", "ws", "ww", "wn"]
    g["hand"] = {
        "number": e.get("hand", g.get("hands_played", 0)),
        "commitment": e.get("commitment"),
        "dice": e.get("dice", []),
        # the drawable tiles before the deal (the wall less its dead part); the deal and its
        # flower replacements count it down
        "wall_left": _drawable_before_deal(r.ruleset),
        "turn": e["dealer"],
        "discarder": None,
        "discard": None,
        "pending": [],
        "seats": [
            {
                "seat": i,
                "wind": winds[i],
                "melds": [],
                "flowers": [],
                "discards": [],
                "concealed_count": 0,
                "ting": False,
                "ting_tile": None,
                "concealed": [] if i == r.seat else None,
                **({"drawn": None, "missed_win": False} if i == r.seat else {}),
            }
            for i in range(4)
        ],
    }
    r.hand_ended = None
    r.last_discard_seat = None
    return [tr("log_hand_starts", n=int(g["hand"]["number"]) + 1, name=r.name_of(e["dealer"]))]


def _dealt(ev: Ev) -> list[str]:
    s, e, h = ev.s, ev.e, ev.h
    s["concealed_count"] += int(e.get("count", 0))
    if h.get("wall_left") is not None:
        h["wall_left"] = max(0, int(h["wall_left"]) - int(e.get("count", 0)))
    if ev.mine and "tiles" in e:
        s["concealed"] = sort_tiles([*s["concealed"], *e["tiles"]])
        s["drawn"] = e["tiles"][-1] if e["seat"] == ev.g.get("dealer") else None
    return []


def _draw(ev: Ev) -> list[str]:
    s, e, h, g = ev.s, ev.e, ev.h, ev.g
    s["concealed_count"] += 1
    if "wall_left" in e:
        h["wall_left"] = e["wall_left"]
    elif h.get("wall_left") is not None:
        h["wall_left"] = max(0, int(h["wall_left"]) - 1)
    if ev.mine and "tile" in e:
        s["concealed"] = sort_tiles([*s["concealed"], e["tile"]])
        s["drawn"] = e["tile"]
        s["missed_win"] = False
    if not e.get("replacement"):
        # a seat's draw in play moves the turn; replacement draws (the deal's flowers, a
        # kong's or a flower's in play) go to the seat whose turn it already is
        h["turn"] = e["seat"]
        g["phase"] = "turn"
        h["discard"] = None
        h["discarder"] = None
    if ev.mine and "tile" in e:
        return [
            tr("log_draw", tile=e["tile"]) + (tr("log_replacement") if e.get("replacement") else "")
        ]
    return []


def _flower(ev: Ev) -> list[str]:
    s, e = ev.s, ev.e
    s["concealed_count"] -= 1
    s["flowers"] = [*s["flowers"], e["tile"]]
    if ev.mine:
        _remove(s["concealed"], e["tile"])
        if s.get("drawn") == e["tile"]:
            s["drawn"] = None
    return [tr("log_flower", name=ev.name, flower=flower_name(str(e["tile"])))]


def _discard(ev: Ev) -> list[str]:
    s, e, h = ev.s, ev.e, ev.h
    s["concealed_count"] -= 1
    s["discards"] = [*s["discards"], e["tile"]]
    if ev.mine:
        _remove(s["concealed"], e["tile"])
        s["drawn"] = None
    h["discard"] = e["tile"]
    h["discarder"] = e["seat"]
    ev.r.last_discard_seat = e["seat"]
    ev.g["phase"] = "claim"
    return [
        tr("log_discard", name=ev.name, tile=e["tile"]) + (tr("log_auto") if e.get("auto") else "")
    ]


def _ting(ev: Ev) -> list[str]:
    ev.s["ting"] = True
    ev.s["ting_tile"] = ev.e.get("tile")
    return [tr("log_ting", name=ev.name)]


def _claimed(ev: Ev) -> list[str]:
    s, e, h = ev.s, ev.e, ev.h
    meld = dict(e["meld"])
    tiles = list(meld.get("tiles") or [])
    src = e.get("from")
    if isinstance(src, int):
        _take_from_river(ev.seats[src], h.get("discard"))
    from_hand = list(tiles)
    claimed = meld.get("claimed") or h.get("discard")
    if claimed in from_hand:
        from_hand.remove(claimed)
    s["concealed_count"] -= len(from_hand)
    if ev.mine:
        for x in from_hand:
            _remove(s["concealed"], x)
        s["drawn"] = None
    s["melds"] = [*s["melds"], meld]
    ev.r.last_discard_seat = None
    _turn_to(ev, e["seat"])
    kind = e.get("claim") or meld.get("kind")
    return [tr("log_claim", name=ev.name, kind=action_word(kind), tiles=" ".join(tiles))]


def _take_from_river(seat_view: JSON, tile: Any) -> None:
    """The claimed tile leaves its discarder's river (its last copy there)."""
    river = seat_view["discards"]
    if river and river[-1] == tile:
        seat_view["discards"] = river[:-1]
    elif tile in river:
        river = list(river)
        river.reverse()
        river.remove(tile)
        river.reverse()
        seat_view["discards"] = river


def _turn_to(ev: Ev, seat: int) -> None:
    ev.h["turn"] = seat
    ev.h["discard"] = None
    ev.h["discarder"] = None
    ev.g["phase"] = "turn"


def _kong_declared(ev: Ev) -> list[str]:
    ev.h["discard"] = ev.e.get("tile")
    ev.h["discarder"] = ev.e.get("seat")
    ev.g["phase"] = "rob"
    return [tr("log_kong_declared", name=ev.name, tile=ev.e.get("tile"))]


def _kong(ev: Ev) -> list[str]:
    return _concealed_kong(ev) if ev.e.get("concealed") else _added_kong(ev)


def _concealed_kong(ev: Ev) -> list[str]:
    s, tile = ev.s, ev.e.get("tile")
    s["concealed_count"] -= 4
    if ev.mine and tile is not None:
        for _ in range(4):
            _remove(s["concealed"], tile)
        s["melds"] = [*s["melds"], {"kind": "kong", "tiles": [tile] * 4, "concealed": True}]
    else:
        s["melds"] = [*s["melds"], {"kind": "kong", "concealed": True, "tiles": None}]
    if ev.mine:
        s["drawn"] = None
    ev.h["turn"] = ev.e["seat"]
    ev.g["phase"] = "turn"
    return [tr("log_concealed_kong", name=ev.name)]


def _added_kong(ev: Ev) -> list[str]:
    s, tile = ev.s, ev.e.get("tile")
    s["concealed_count"] -= 1
    if ev.mine and tile is not None:
        _remove(s["concealed"], tile)
        s["drawn"] = None
    melds = []
    for mm in s["melds"]:
        if (
            mm.get("kind") == "pung"
            and (mm.get("tiles") or [None])[0] == tile
            and not mm.get("concealed")
        ):
            mm = {**mm, "kind": "kong", "tiles": [tile] * 4, "added": True}
        melds.append(mm)
    s["melds"] = melds
    _turn_to(ev, ev.e["seat"])
    return [tr("log_added_kong", name=ev.name, tile=tile)]


def _payment(ev: Ev) -> list[str]:
    e, g, r = ev.e, ev.g, ev.r
    scores = list(g.get("scores") or [0, 0, 0, 0])
    scores[e["payer"]] -= e["amount"]
    scores[e["payee"]] += e["amount"]
    g["scores"] = scores
    r.ledger.append(dict(e))
    payer, payee = r.name_of(e["payer"]), r.name_of(e["payee"])
    why = pay_reason(e.get("reason"))
    return [tr("log_pays", payer=payer, payee=payee, amount=e["amount"], reason=why)]


def _timeout(ev: Ev) -> list[str]:
    return [tr("log_timed_out", name=ev.name, default=action_word(ev.e.get("default")))]


def _nothing(ev: Ev) -> list[str]:
    return []


def _hand_won(ev: Ev) -> list[str]:
    e, r = ev.e, ev.r
    r.results.append({**e, "context": _context(ev.g, ev.h)})
    ev.g["phase"] = "between_hands"
    _won_tile_moves(ev)
    out = []
    for w in e.get("winners") or []:
        total = (w.get("score") or {}).get("total")
        raw = str(e.get("how", ""))
        how = tr(f"log_how_{raw}") if has(f"log_how_{raw}") else raw.replace("_", "-")
        name = r.name_of(w["seat"])
        out.append(tr("log_wins", name=name, how=how, tile=e.get("tile"), total=total))
    return out


def _won_tile_moves(ev: Ev) -> None:
    """The won tile joins the (head) winner's hand: from the discarder's river, or from the
    hand of the seat whose added kong was robbed (as the engine's view shows it)."""
    e, seats = ev.e, ev.seats
    d, winners, how = e.get("discarder"), e.get("winners") or [], e.get("how")
    if how not in ("discard", "robbing_kong") or not isinstance(d, int) or not winners:
        return
    if not 0 <= d < len(seats):
        raise MalformedMessage(f"hand_won: no seat {d}")
    if how == "discard":
        _take_from_river(seats[d], e.get("tile"))
    else:
        seats[d]["concealed_count"] -= 1
        if d == ev.r.seat and e.get("tile") in (seats[d].get("concealed") or []):
            _remove(seats[d]["concealed"], e["tile"])
    head = winners[0].get("seat")
    if isinstance(head, int) and 0 <= head < len(seats):
        seats[head]["concealed_count"] += 1


def _hand_drawn(ev: Ev) -> list[str]:
    ev.r.results.append({**ev.e, "context": _context(ev.g, ev.h)})
    ev.g["phase"] = "between_hands"
    return [tr("log_hand_drawn", reason=ev.e.get("reason"))]


def _hand_ended(ev: Ev) -> list[str]:
    e, g, h, seats = ev.e, ev.g, ev.h, ev.seats
    ev.r.hand_ended = dict(e)
    for i, tiles in enumerate(e.get("hands") or []):
        if i < len(seats):
            seats[i]["concealed"] = sort_tiles(tiles)
            seats[i]["concealed_count"] = len(tiles)
    for i, kongs in enumerate(e.get("concealed_kongs") or []):
        if i < len(seats):
            _show_kongs(seats[i], list(kongs))
    if "scores" in e:
        g["scores"] = list(e["scores"])
    g["phase"] = "between_hands"
    g["hands_played"] = int(g.get("hands_played", 0)) + 1
    h["pending"] = []
    if any(mm.get("tiles") is None for sv in seats for mm in sv["melds"]):
        # an older server does not show another seat's concealed kongs: a snapshot does
        ev.r.wants_snapshot = True
    return []


def _show_kongs(seat_view: JSON, kongs: list[Any]) -> None:
    """Another seat's concealed kongs, hidden until the hand ends, in meld order."""
    melds = []
    for m in seat_view["melds"]:
        if m.get("kind") == "kong" and m.get("tiles") is None and kongs:
            t = kongs.pop(0)
            m = {**m, "tiles": [t, t, t, t]}
        melds.append(m)
    seat_view["melds"] = melds


def _next_hand(ev: Ev) -> list[str]:
    e, g = ev.e, ev.g
    g["phase"] = "between_hands"
    g["dealer"] = e.get("dealer", g.get("dealer"))
    g["streak"] = e.get("streak", g.get("streak"))
    g["round_wind"] = e.get("round_wind", g.get("round_wind"))
    if "hand" in e:
        g["hands_played"] = e["hand"]
    order = ("we", "ws", "ww", "wn")
    winds = e.get("seat_winds") or [order[(i - int(g["dealer"])) % 4] for i in range(4)]
    for i, sv in enumerate(ev.seats):  # the winds of the next dealer (older servers: computed)
        sv["wind"] = winds[i]
    return []


def _game_over(ev: Ev) -> list[str]:
    ev.g["phase"] = "game_over"
    if "scores" in ev.e:
        ev.g["scores"] = list(ev.e["scores"])
    return [tr("log_game_over")]


#: event type -> its reducer (``hand_started`` is applied before a hand view exists)
REDUCERS: dict[str, Callable[[Ev], list[str]]] = {
    "dealt": _dealt,
    "draw": _draw,
    "flower": _flower,
    "discard": _discard,
    "ting": _ting,
    "claimed": _claimed,
    "kong_declared": _kong_declared,
    "kong": _kong,
    "payment": _payment,
    "timeout": _timeout,
    "answered": _nothing,
    "instant": _nothing,
    "hand_won": _hand_won,
    "hand_drawn": _hand_drawn,
    "hand_ended": _hand_ended,
    "next_hand": _next_hand,
    "game_over": _game_over,
}


def _context(g: JSON, h: JSON) -> JSON:
    """The table of the hand that just ended, kept with its result."""
    return {
        "number": h.get("number"),
        "round_wind": g.get("round_wind"),
        "dealer": g.get("dealer"),
        "streak": g.get("streak"),
        "winds": [sv.get("wind") for sv in h.get("seats") or []],
    }


def _drawable_before_deal(ruleset: str) -> int | None:
    """The wall a hand starts with, less the tiles never drawn normally, from the rule set's
    parameters (the ``table`` package, installed with the client); None if unknown."""
    try:
        from table.params import get_params

        p = get_params(ruleset)
    except Exception:
        return None
    return int(p.tile_count - p.dead_wall)


def _remove(tiles: list[str], tile: str) -> None:
    """Take one of our own tiles out of our hand: the server says we played it, so we must
    hold it; if we do not, the view is out of step (an event lost or out of order)."""
    if tile not in tiles:
        raise MalformedMessage(f"we do not hold {tile!r}")
    tiles.remove(tile)


def apply_notice(r: RoomState, n: JSON, me: str | None = None) -> list[str]:
    """A room notice (the room's lobby already applied): the narration line, and the
    game's summary for ``game_over``. ``me``: our player id."""
    t = n.get("type")
    if t == "game_over":
        r.summary = dict(n.get("summary") or {})
        ledger = r.summary.get("ledger")
        if isinstance(ledger, list):
            r.ledger = [dict(p) for p in ledger]
        scores = enumerate(r.summary.get("scores") or [])
        return [tr("log_final", scores=", ".join(f"{r.name_of(i)} {s}" for i, s in scores))]
    return [_notice_line(r, n, me)]


#: notices about a seat (named by its seat)
SEAT_NOTICES = frozenset({"seat_away", "seat_back", "bot_took_over"})
#: notice type -> the log line's key (fields: ``name``, the notice's or its seat's)
NOTICE_LINES = {
    "joined": "log_joined",
    "left": "log_left",
    "seat_away": "log_away",
    "seat_back": "log_back",
    "bot_took_over": "log_bot_took_over",
    "room_created": "log_room_created",
    "room_closed": "log_room_closed",
    "paused": "log_paused",
}


def _notice_line(r: RoomState, n: JSON, me: str | None) -> str:
    t = n.get("type")
    name = r.name_of(n.get("seat")) if t in SEAT_NOTICES else n.get("name")
    about_me = me is not None and n.get("player") == me
    if t in NOTICE_LINES:
        return tr(NOTICE_LINES[str(t)], name=name)
    if t == "kicked":
        return tr("log_kicked_you") if about_me else tr("log_kicked", name=name)
    if t == "host_changed":
        return tr("log_host_you") if about_me else tr("log_host", name=name)
    if t == "resumed":
        secs = int(n.get("paused_ms") or 0) / 1000
        return tr("log_resumed_game", name=name, secs=f"{secs:.0f}")
    return str(t)


def action_word(kind: object) -> str:
    """An action type (``chow``, ``discard``, ``pass``…) in words; an unknown one as is."""
    return tr(f"act_{kind}") if lang() != "en" and has(f"act_{kind}") else str(kind)
