"""Rendering: a :class:`~clients.cli.model.RoomState` to rich renderables.

Pure functions of the model (and of "now" for the countdown), shared by the live table and
the replay viewer, so a screen can be checked without a terminal.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from clients.cli.advice import advise, describe, shanten_words
from clients.cli.i18n import (
    by_code,
    has,
    hint_note,
    lang,
    pattern_name,
    pay_reason,
    ruleset_name,
    tr,
)
from clients.cli.model import RoomState
from clients.cli.tiles import (
    WIND_CHARS,
    WIND_NAMES,
    TileStyle,
    flower_name,
    sort_tiles,
)

JSON = dict[str, Any]

LAST_DISCARD = "reverse"
HOW = ("self_drawn", "discard", "robbing_kong", "flowers")
_SIMPLIFIED_WINDS = {"東": "东", "南": "南", "西": "西", "北": "北"}


def wind_words(w: str) -> str:
    """A wind as the screen names it: ``東 East`` in English, ``東`` / ``东`` in Chinese."""
    ch = WIND_CHARS.get(w, w)
    if lang() == "en":
        return f"{ch} {WIND_NAMES.get(w, w)}"
    return _SIMPLIFIED_WINDS.get(ch, ch) if lang() == "zh-Hans" else ch


def how_words(how: object) -> str:
    return tr(f"how_{how}") if how in HOW else str(how)


def seat_order(r: RoomState) -> list[int]:
    """Seats from the one after mine round to mine (mine last), or 0-3 for spectators."""
    me = r.seat if r.seat is not None else 3
    return [(me + k) % 4 for k in (1, 2, 3, 4)]


#: the key that passes in every prompt (and ``x``): the numbers are only ever claims, so
#: ``1`` never means "pass" in one prompt and "claim" in the next
PASS_KEY = "0"


def options(r: RoomState) -> list[JSON]:
    """The legal actions offered as numbered choices ``1``…``9``: the wins and claims (not
    discard and ting, and not pass, which is always ``0`` / ``x``)."""
    order = {
        "win": 0,
        "concealed_kong": 1,
        "added_kong": 2,
        "kong": 3,
        "pung": 4,
        "chow": 5,
        "pass": 9,
    }
    out = [a for a in r.legal if a.get("type") not in ("discard", "ting", "pass")]
    out.sort(key=lambda a: (order.get(str(a.get("type")), 8), str(a.get("tile") or "")))
    return out


def header(
    r: RoomState,
    now_ms: int,
    connected: bool = True,
    *,
    rooms: tuple[int, int] | None = None,
    compact: bool = False,
) -> Text:
    """The header line: room, rule set, round, hand, wall, whose turn, the countdown.
    ``rooms`` (this one's number, how many) when we are in more than one room."""
    t = Text()
    t.append(tr("room", code=r.code), style="bold black on yellow")
    if rooms is not None and rooms[1] > 1:
        t.append(f" {rooms[0]}/{rooms[1]}" + tr("next_room"), style="bold yellow")
    t.append(f"  {r.ruleset}  ", style="bold")
    g = r.game
    if g is None:
        t.append(tr("status", status=by_code("room_status", r.status, r.status)))
    else:
        ctx = r.hand_context() or {}  # the finished hand's, while its result is shown
        rw = str(ctx.get("round_wind") or g.get("round_wind") or "we")
        t.append((wind_words(rw) if compact else tr("round", wind=wind_words(rw))) + "  ")
        h = r.hand
        hand_no = int(h["number"]) + 1 if h is not None else int(g.get("hands_played", 0)) + 1
        t.append(tr("hand_no", n=hand_no) + "  ")
        streak = ctx.get("streak", g.get("streak"))
        if streak:
            t.append(f"連{streak}  ")
        if h is not None:
            left = h.get("wall_left")
            n = left if left is not None else "—"
            t.append(tr("wall" if compact else "tiles_left", n=n) + "  ")
            phase = r.phase
            if phase == "turn":
                mine = h.get("turn") == r.seat
                who = tr("your_turn") if mine else tr("their_turn", name=r.name_of(h.get("turn")))
                t.append(f"{who}  ", style="bold cyan")
            elif phase in ("claim", "rob"):
                who = r.name_of(h.get("discarder"))
                t.append(tr("claims_on", name=who, tile=h.get("discard")) + "  ", style="cyan")
            elif phase == "between_hands":
                t.append(tr("hand_over") + "  ", style="bold")
            elif phase == "game_over":
                t.append(tr("game_over") + "  ", style="bold")
    left_s = r.time_left(now_ms)
    if left_s is not None:
        style = "bold white on red" if left_s <= 5 else "bold white on blue"
        t.append(f" ⏱ {left_s:4.1f}s ", style=style)
    if not connected:
        t.append("  " + tr("reconnecting"), style="bold red blink")
    return t


def _meld_text(meld: JSON, style: TileStyle) -> Text:
    tiles = meld.get("tiles")
    if tiles is None:  # another seat's concealed kong
        return style.row([None, None, None, None])
    out = Text()
    claimed = meld.get("claimed")
    marked = False
    for code in tiles:
        hl = None
        if claimed == code and not marked:
            hl, marked = "underline", True
        out.append_text(style.text(code, hl))
    if meld.get("concealed"):
        out.append("(暗)", style="dim")
    return out


def _flowers_text(flowers: list[str], style: TileStyle) -> Text:
    """Flowers by name (``春 Spring``), after the glyph unless plain."""
    out = Text()
    for k, code in enumerate(flowers):
        if k:
            out.append(" ")
        if not style.plain:
            out.append_text(style.text(code))
        out.append(flower_name(code), style="magenta" if style.colour_on else "")
    return out


def seats_table(r: RoomState, style: TileStyle, *, compact: bool = False) -> Table:
    """Every seat: who, wind, dealer, score, tiles, melds, flowers, river. ``compact``: two
    lines a seat, no rules between them (80-column terminals).

    While a finished hand's result is shown, its winds and dealer are (the next hand's come
    with its start). Hands are shown open after a hand, and always when the table is seen
    from no seat (the replay)."""
    if compact:
        table = Table.grid(expand=True, padding=(0, 1))
        table.add_column(tr("col_seat"), width=22, no_wrap=True, overflow="ellipsis")
        table.add_column(tr("frame_table"), ratio=1, overflow="fold")
    else:
        table = Table(expand=True, show_lines=True, padding=(0, 1))
        table.add_column(tr("col_seat"), width=25, overflow="fold")
        table.add_column(tr("col_melds"), ratio=2, overflow="fold")
        table.add_column(tr("col_discards"), ratio=3, overflow="fold")
    g = r.game or {}
    h = r.hand
    ctx = r.hand_context()
    winds = list(ctx["winds"]) if ctx is not None else None
    dealer = ctx["dealer"] if ctx is not None else g.get("dealer")
    scores = g.get("scores") or [0, 0, 0, 0]
    last_discarder = r.last_discard_seat
    lobby_seats = r.seats()
    open_hands = r.seat is None or r.phase in ("between_hands", "game_over")
    for i in seat_order(r):
        sv = r.seat_view(i)
        name = Text()
        ls = lobby_seats[i] if i < len(lobby_seats) else None
        is_turn = h is not None and h.get("turn") == i and r.phase == "turn"
        name.append("▶ " if is_turn else "  ", style="bold cyan")
        name.append(r.name_of(i), style="bold" + (" cyan" if i == r.seat else ""))
        if i == r.seat:
            name.append(tr("you"), style="cyan")
        if ls and ls.get("bot"):
            name.append(tr("bot"), style="dim")
        elif ls and ls.get("away"):
            name.append(tr("away_mark"), style="red")
        if ls and ls.get("auto") and not ls.get("bot"):
            name.append(tr("auto_mark"), style="yellow")
        name.append("\n")
        if sv is not None:
            w = str((winds[i] if winds is not None and i < len(winds) else None) or sv.get("wind"))
            name.append(f"  {wind_words(w).split()[0] if compact else wind_words(w)}")
        if dealer == i:
            name.append(" 莊" if compact else tr("dealer_mark"), style="bold yellow")
        if compact:
            name.append(f" {scores[i] if i < len(scores) else 0:+d}")
            if sv is not None:
                name.append(" " + tr("tiles_short", n=sv.get("concealed_count", 0)))
        else:
            name.append("\n")
            name.append(tr("score_of", n=f"{scores[i] if i < len(scores) else 0:+d}"))
            if sv is not None:
                name.append(tr("tiles_of", n=sv.get("concealed_count", 0)))
        if sv is not None and sv.get("ting"):
            name.append("  叮", style="bold magenta")
        melds = Text()
        discards = Text()
        if sv is not None:
            for meld in sv.get("melds") or []:
                melds.append_text(_meld_text(meld, style))
                melds.append(" ")
            if sv.get("flowers"):
                if melds and not compact:
                    melds.append("\n")
                melds.append(tr("flowers"), style="dim")
                melds.append_text(_flowers_text(list(sv["flowers"]), style))
                melds.append(" ")
            concealed = sv.get("concealed")
            if concealed is not None and i != r.seat and open_hands:
                if melds and not compact:
                    melds.append("\n")
                melds.append(tr("hand"), style="dim")
                melds.append_text(style.row(sort_tiles(concealed)))
            river = list(sv.get("discards") or [])
            hl = None
            if last_discarder == i:
                hl = LAST_DISCARD if r.phase in ("claim", "rob") else "underline"
            discards = style.row(river, highlight_last=hl)
        if compact:
            both = Text()
            both.append_text(melds)
            both.append("\n")
            both.append_text(discards if discards else Text("(no discards)", style="dim"))
            table.add_row(name, both)
        else:
            table.add_row(name, melds, discards)
    return table


def _drawn_apart(r: RoomState) -> tuple[list[str], str | None]:
    """My tiles sorted, and the drawn tile apart while it is my turn."""
    tiles, drawn = r.my_tiles()
    if drawn is not None and not (r.phase == "turn" and (r.hand or {}).get("turn") == r.seat):
        return sort_tiles([*tiles, drawn]), None
    return tiles, drawn


def selectable(r: RoomState) -> list[str]:
    """The tiles the cursor walks over, in display order (the drawn tile last)."""
    tiles, drawn = _drawn_apart(r)
    return [*tiles, *([drawn] if drawn else [])]


def hand_line(r: RoomState, style: TileStyle, cursor: int | None) -> Text:
    """My hand, sorted, with the drawn tile apart; the chosen tile is highlighted."""
    tiles, drawn = _drawn_apart(r)
    allt = [*tiles, *([drawn] if drawn else [])]
    if not allt:
        return Text("(no tiles)", style="dim")
    out = Text()
    marks = Text()
    for k, code in enumerate(allt):
        if drawn is not None and k == len(tiles):
            out.append("   ")
            marks.append("   ")
        tile = style.text(code, "reverse" if cursor == k else None)
        out.append_text(tile)
        marks.append(("^" if cursor == k else " ").ljust(tile.cell_len), style="bold yellow")
    me = r.my_view() or {}
    if me.get("ting"):
        out.append("  叮", style="bold magenta")
    out.append("\n")
    out.append_text(marks)
    return out


def prompt(r: RoomState, now_ms: int, armed: str | None = None, host: bool = False) -> Text:
    """What you can do now, and how. ``armed``: a move waiting for its confirmation;
    ``host``: we are the room's host (the host keys are shown)."""
    t = Text()
    if r.status == "lobby":
        t.append(tr("keys_lobby_head"), style="bold")
        t.append(tr("keys_lobby"))
        if host:
            t.append(tr("keys_host_head"), style="bold")
            t.append(tr("keys_host"))
        return t
    if r.status == "finished":
        t.append(tr("keys_over_head"), style="bold")
        t.append(tr("keys_over"))
        if host:
            t.append(tr("keys_host_head"), style="bold")
            t.append(tr("keys_host"))
        return t
    paused = r.paused
    if paused is not None:
        t.append(tr("paused_by", name=paused.get("name", "?")), style="bold black on yellow")
        t.append(tr("paused_host") if host else tr("paused_wait"))
        return t
    if r.action_pending:
        t.append(tr("sent"), style="dim")
        return t
    if not r.legal:
        t.append(
            tr("waiting_others")
            if r.phase not in ("between_hands", "game_over")
            else tr("next_hand_soon"),
            style="dim",
        )
        return t
    left = r.time_left(now_ms)
    if left is not None:
        t.append(f"⏱ {left:4.1f}s  ", style="bold red" if left <= 5 else "bold")
    if armed is not None:
        t.append(f"{armed}? ", style="bold black on yellow")
        t.append("Enter", style="bold")
        t.append(tr("confirm"))
        return t
    if r.legal_of("discard"):
        t.append(tr("choose"))
        t.append(tr("enter_discard"), style="bold")
        t.append(" ")
        if r.legal_of("ting"):
            t.append(", ")
            t.append("t 叮", style="bold")
            t.append(tr("ting_hint"))
        t.append("   ")
    for k, a in enumerate(options(r), start=1):
        t.append(f"[{k}] ", style="bold yellow")
        t.append(describe(a) + "  ", style="bold" if a.get("type") == "win" else "")
    if r.legal_of("pass"):
        t.append(f"[{PASS_KEY}/x] ", style="bold yellow")
        t.append(tr("pass"))
    if r.phase in ("claim", "rob"):
        t.append(tr("claim_keys"), style="dim")
    elif options(r):
        t.append(tr("win_keys"), style="dim")
    return t


def help_panel(r: RoomState, style: TileStyle) -> RenderableType:
    t = Text()
    t.append(tr("help"), style="bold underline")
    if r.legal:
        t.append(tr("you_may"), style="bold")
        kinds: list[str] = []
        for a in r.legal:
            d = (
                describe({"type": a.get("type")})
                if a.get("type") in ("discard", "ting")
                else describe(a)
            )
            if d not in kinds:
                kinds.append(d)
        t.append(", ".join(kinds) + "\n")
    hints = r.hints if r.hints is not None and r.hints.get("seq", -1) >= r.legal_seq else None
    if hints is not None and r.my_view() is not None and r.phase in ("turn", "claim", "rob"):
        t.append_text(server_hints(hints, style))
        return t
    adv = advise(r)
    if r.my_view() is not None and r.phase in ("turn", "claim", "rob"):
        t.append(tr("hint_hand"), style="bold")
        t.append(shanten_words(adv.shanten) + "\n")
        if adv.waits:
            t.append(tr("hint_waits"), style="bold")
            for code, unseen in adv.waits:
                t.append_text(style.text(code))
                t.append(f"×{unseen}  ", style="dim" if unseen == 0 else "")
            t.append(tr("hint_unseen", n=sum(u for _, u in adv.waits)))
        for code, w in adv.discards[:4]:
            t.append(tr("hint_discard"))
            t.append_text(style.text(code))
            t.append(tr("hint_then_waits"))
            for wc, unseen in w:
                t.append_text(style.text(wc))
                t.append(f"×{unseen} ")
            t.append("\n")
    return t


def server_hints(h: JSON, style: TileStyle) -> Text:
    """The server's hints (docs/protocol.md "Hints"): how far from ready, the best discards
    and the waits, each wait marked with whether a win on it reaches the minimum."""
    t = Text()
    t.append(tr("hint_hand"), style="bold")
    t.append(shanten_words(h.get("shanten")))
    minimum = int(h.get("minimum") or 0)
    if minimum:
        t.append(tr("hint_minimum", n=minimum), style="dim")
    t.append("\n")
    if h.get("note"):
        note = hint_note(h.get("note_code"), minimum, str(h["note"]))
        t.append(note + "\n", style="yellow")

    def waits(ws: list[JSON]) -> None:
        for w in ws:
            t.append_text(style.text(str(w["tile"])))
            t.append(f"×{w['unseen']}", style="dim" if w["unseen"] == 0 else "")
            if minimum:
                ok = [
                    tr(k)
                    for k, f in (("hint_ron", "by_discard"), ("hint_tsumo", "by_self_draw"))
                    if w[f]
                ]
                t.append(f"[{'/'.join(ok) or tr('hint_below', n=minimum)}]", style="dim")
            t.append("  ")

    if h.get("waits"):
        t.append(tr("hint_waits"), style="bold")
        waits(list(h["waits"]))
        t.append(tr("hint_unseen", n=sum(int(w["unseen"]) for w in h["waits"])))
    for d in list(h.get("discards") or [])[:4]:
        t.append(tr("hint_discard"))
        t.append_text(style.text(str(d["tile"])))
        if d.get("waits"):
            t.append(tr("hint_then_waits"))
            waits(list(d["waits"]))
        else:
            t.append(tr("hint_useful", n=d["useful"]))
        t.append("\n")
    return t


def breakdown(r: RoomState, style: TileStyle) -> RenderableType | None:
    """The win breakdown of the last hand: patterns (Chinese + English), values, payments."""
    res = r.results[-1] if r.results else None
    if res is None:
        return None
    if res.get("type") == "hand_drawn":
        drawn = Text(
            tr("drawn", n=int(res.get("hand", 0)) + 1, reason=res.get("reason")), style="bold"
        )
        ctx = res.get("context")
        return Group(hand_table_line(r, ctx), drawn) if isinstance(ctx, dict) else drawn
    parts: list[RenderableType] = []
    ctx = res.get("context")
    if isinstance(ctx, dict):
        parts.append(hand_table_line(r, ctx))
    for w in res.get("winners") or []:
        seat = int(w["seat"])
        score = w.get("score") or {}
        title = Text()
        title.append(tr("win_breakdown"), style="bold underline")
        title.append(tr("wins", name=r.name_of(seat), how=how_words(res.get("how"))), style="bold")
        title.append_text(style.text(str(res.get("tile"))))
        if res.get("discarder") is not None and res.get("how") != "self_drawn":
            title.append(tr("from", name=r.name_of(res.get("discarder"))))
        parts.append(title)
        hand = w.get("hand") or {}
        ht = Text(tr("hand"))
        ht.append_text(style.row(hand.get("concealed") or []))
        for meld in hand.get("melds") or []:
            ht.append(" ")
            ht.append_text(_meld_text(meld, style))
        parts.append(ht)
        tbl = Table(show_header=True, header_style="bold", padding=(0, 1), show_edge=False)
        english = lang() == "en"  # the English gloss beside the Chinese name
        tbl.add_column(tr("col_pattern"))
        if english:
            tbl.add_column(tr("col_english"))
        tbl.add_column(tr("col_value"), justify="right")
        ruleset = str(score.get("ruleset") or r.ruleset)
        for it in score.get("items") or []:
            cnt = int(it.get("count", 1) or 1)
            pts = int(it.get("points", 0) or 0)
            value = f"{pts}×{cnt}={pts * cnt}" if cnt > 1 else str(pts)
            if it.get("house"):
                value += tr("house")  # the room's value, not the table's
            name = pattern_name(ruleset, str(it.get("id")), str(it.get("name", it.get("id"))))
            gloss = [str(it.get("en", ""))] if english else []
            tbl.add_row(name, *gloss, value)
        total = Text(str(score.get("total")), style="bold")
        tbl.add_row(Text(tr("total"), style="bold"), *([""] if english else []), total)
        parts.append(tbl)
        pays = w.get("payments") or []
        if pays:
            net = [0, 0, 0, 0]
            for p in pays:
                net[int(p["payer"])] -= int(p["amount"])
                net[int(p["payee"])] += int(p["amount"])
            pt = Text(tr("payments"), style="bold")
            pt.append(
                "  ".join(
                    f"{r.name_of(p['payer'])} → {r.name_of(p['payee'])} {p['amount']}" for p in pays
                )
            )
            pt.append(tr("net") + "  ".join(f"{r.name_of(i)} {v:+d}" for i, v in enumerate(net)))
            parts.append(pt)
    return Group(*parts)


def hand_table_line(r: RoomState, ctx: JSON) -> Text:
    """The finished hand's round, dealer and seat winds (shown beside its result)."""
    rw = str(ctx.get("round_wind") or "")
    t = Text(tr("hand_no", n=int(ctx.get("number") or 0) + 1), style="bold")
    t.append(", " + tr("round", wind=wind_words(rw)))
    dealer = ctx.get("dealer")
    if isinstance(dealer, int):
        t.append(tr("dealer", name=r.name_of(dealer)))
        if ctx.get("streak"):
            t.append(f" 連{ctx['streak']}")
    winds = ctx.get("winds") or []
    t.append(tr("winds"))
    t.append("  ".join(f"{r.name_of(i)} {wind_words(str(w))}" for i, w in enumerate(winds)))
    return t


def summary_panel(r: RoomState) -> RenderableType | None:
    s = r.summary
    if s is None:
        return None
    parts: list[RenderableType] = []
    t = Text(tr("summary"), style="bold underline")
    rs = str(s.get("ruleset"))
    t.append(tr("summary_of", n=s.get("hands_played"), ruleset=ruleset_name(rs)), style="")
    parts.append(t)
    scores = list(s.get("scores") or [])
    ranking = sorted(range(len(scores)), key=lambda i: -scores[i])
    st = Table(show_edge=False, padding=(0, 1))
    st.add_column("#")
    st.add_column(tr("col_player"))
    st.add_column(tr("col_score"), justify="right")
    for k, i in enumerate(ranking, start=1):
        st.add_row(str(k), r.name_of(i), f"{scores[i]:+d}")
    parts.append(st)
    ledger = list(s.get("ledger") or r.ledger)
    if ledger:
        lt = Table(title=tr("ledger"), show_edge=False, padding=(0, 1))
        lt.add_column(tr("col_hand"), justify="right")
        lt.add_column(tr("col_payer"))
        lt.add_column(tr("col_payee"))
        lt.add_column(tr("col_amount"), justify="right")
        lt.add_column(tr("col_reason"))
        for p in ledger[-12:]:
            lt.add_row(
                str(int(p.get("hand", 0)) + 1),
                r.name_of(p.get("payer")),
                r.name_of(p.get("payee")),
                str(p.get("amount")),
                pay_reason(p.get("reason", "")),
            )
        if len(ledger) > 12:
            lt.caption = tr("last_payments", n=len(ledger))
        parts.append(lt)
    return Group(*parts)


def lobby_panel(r: RoomState, player_id: str | None) -> Text:
    t = Text()
    t.append(tr("room_code", code=r.code), style="bold yellow")
    t.append(tr("share", ruleset=ruleset_name(r.ruleset) if lang() != "en" else r.ruleset))
    opts = r.lobby.get("options") or {}
    if opts:
        length = opts.get("length")
        if length == "hands":
            length = tr("n_hands", n=opts.get("hands"))
        elif lang() != "en" and has(f"len_{length}"):
            length = tr(f"len_{length}")
        turn = opts.get("turn_seconds")
        claim = opts.get("claim_seconds")
        t.append(tr("length", length=length))
        t.append(tr("turn_timer", n=turn) if turn else tr("no_turn_timer"))
        t.append(tr("claim_timer", n=claim) if claim else tr("no_claim_timer"))
    t.append("\n")
    for i, s in enumerate(r.seats()):
        t.append(tr("seat", n=i + 1))
        if s is None:
            t.append(tr("empty"), style="dim")
        else:
            t.append(str(s.get("name")), style="bold")
            if s.get("bot"):
                t.append(tr("bot"), style="dim")
            if s.get("player") == player_id:
                t.append(tr("you"), style="cyan")
            t.append(
                tr("ready") if s.get("ready") else tr("not_ready"),
                style="green" if s.get("ready") else "red",
            )
        t.append("\n")
    spect = r.lobby.get("spectators") or []
    if spect:
        t.append(tr("watching", names=", ".join(str(x.get("name")) for x in spect)))
    if r.is_host(player_id):
        t.append(tr("you_host"), style="dim")
    return t
