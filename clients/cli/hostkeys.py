"""The terminal client's room keys that ask for a seat or a member: what each asks, and the message the answer sends.

The table screen (clients/cli/table_screen.py) binds the keys; a key that needs a target starts a
:class:`Pick` (the status line shows its question), the next key answers it (a number) or
cancels it (any other key). Pure: no widgets, no I/O.

======  =================================================  ======================
key     does                                               asks for
======  =================================================  ======================
``u``   stand up (lobby)                                   —
``e``   remove a bot (host, lobby)                         the bot's seat
``o``   swap two seats (host, lobby)                       two seats
``K``   kick a member (host)                               the member
``H``   hand the host role over (host)                     the member
``P``   pause / resume the game (host, during a game)      —
======  =================================================  ======================

Members are numbered as :meth:`RoomState.members` does: seated players by seat (1–4),
spectators from 5.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from clients.cli.i18n import tr
from clients.cli.model import RoomState
from protocol import messages as m

#: host-only keys (what they are called: the catalogue's ``host_<key>``)
HOST_KEYS = frozenset({"e", "o", "K", "H", "P"})


@dataclass(frozen=True)
class Pick:
    """A key waiting for its target: ``kind`` (remove_bot, swap, kick, make_host), the
    question for the status line, the answers (key -> seat or player id) and, for a swap,
    the first seat chosen."""

    kind: str
    question: str
    choices: dict[str, int | str] = field(default_factory=dict)
    first: int | None = None


def _seats_question(
    r: RoomState, what: str, only_bots: bool = False, other_than: int | None = None
) -> tuple[str, dict[str, int | str]]:
    choices: dict[str, int | str] = {}
    words = []
    for i, s in enumerate(r.seats()):
        if (only_bots and not (s and s.get("bot"))) or i == other_than:
            continue
        choices[str(i + 1)] = i
        words.append(f"{i + 1} {s.get('name', '?') if s else tr('ask_free')}")
    return f"{what}: " + "  ".join(words) + tr("ask_cancel"), choices


def start(key: str, r: RoomState, me: str | None) -> Pick | m.ClientMessage | str:
    """What ``key`` does in room ``r`` for player ``me``: a message to send at once, a
    :class:`Pick` to ask for its target, or why it does nothing now (for the status line)."""
    if key == "u":
        if r.seat is None:
            return tr("not_seated")
        return m.Stand(room=r.id)
    if key in HOST_KEYS and not r.is_host(me):
        return tr("only_host", what=tr(f"host_{key}"))
    if key == "P":
        if r.status != "playing":
            return tr("pause_in_game")
        if r.paused is not None:
            return m.ResumeGame(room=r.id)
        return m.PauseGame(room=r.id)
    if key in ("e", "o") and r.status == "playing":
        return tr("between_games")
    if key == "e":
        q, choices = _seats_question(r, tr("ask_remove_bot"), only_bots=True)
        if not choices:
            return tr("no_bot")
        return Pick("remove_bot", q, choices)
    if key == "o":
        q, choices = _seats_question(r, tr("ask_swap"))
        return Pick("swap", q, choices)
    if key in ("K", "H"):
        choices = {k: pid for k, pid, _ in r.members() if pid != me}
        if not choices:
            return tr("nobody_else")
        what = tr(f"host_{key}")
        words = "  ".join(f"{k} {name}" for k, pid, name in r.members() if pid != me)
        return Pick(
            "kick" if key == "K" else "make_host",
            f"{what}: {words}{tr('ask_cancel')}",
            dict(choices),
        )
    return ""


def answer(pick: Pick, key: str, r: RoomState) -> Pick | m.ClientMessage | None:
    """The answer ``key`` to ``pick``: the message to send, the next question (a swap's
    second seat) or None (not one of the choices: cancelled)."""
    target = pick.choices.get(key)
    if target is None:
        return None
    if pick.kind == "remove_bot" and isinstance(target, int):
        return m.RemoveBot(room=r.id, seat=target)
    if pick.kind == "swap" and isinstance(target, int):
        if pick.first is None:
            q, choices = _seats_question(r, tr("ask_swap_with", n=target + 1), other_than=target)
            return Pick("swap", q, choices, first=target)
        return m.SwapSeats(room=r.id, a=pick.first, b=target)
    if pick.kind == "kick" and isinstance(target, str):
        return m.Kick(room=r.id, player=target)
    if pick.kind == "make_host" and isinstance(target, str):
        return m.MakeHost(room=r.id, player=target)
    return None
