"""The terminal client's language: English, 繁體中文 or 简体中文 for its words and the pattern names.

``--lang`` picks it; by default it comes from the environment's locale (``LC_ALL``,
``LC_MESSAGES``, ``LANG``, ``LANGUAGE``: ``zh_TW``/``zh_HK``/``zh_MO``/``*Hant*`` are
Traditional, any other ``zh`` Simplified, anything else English). Pattern names are the ones
the browser shows, generated from the rule data at build time (clients/names.py,
clients/web/src/i18n/names.json): nothing is converted here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Literal

__all__ = [
    "LANGS",
    "MESSAGES",
    "Lang",
    "from_locale",
    "lang",
    "pattern_name",
    "ruleset_name",
    "set_lang",
    "tr",
]

Lang = Literal["en", "zh-Hant", "zh-Hans"]
LANGS: tuple[Lang, ...] = ("en", "zh-Hant", "zh-Hans")
NAMES = Path(__file__).resolve().parent.parent / "web" / "src" / "i18n" / "names.json"

#: Every word of the screens that is translated: key -> (English, 繁體中文, 简体中文), with
#: ``str.format`` fields. Each language has every key (tests/cli_tests/test_i18n.py).
MESSAGES: dict[str, tuple[str, str, str]] = {
    "room": (" Room {code} ", " 房間 {code} ", " 房间 {code} "),
    "round": ("{wind} round", "{wind}圈", "{wind}圈"),
    "hand_no": ("Hand {n}", "第 {n} 局", "第 {n} 局"),
    "wall": ("Wall {n}", "牌牆 {n}", "牌墙 {n}"),
    "tiles_left": ("Tiles left {n}", "餘牌 {n}", "余牌 {n}"),
    "your_turn": ("your turn", "輪到你", "轮到你"),
    "their_turn": ("{name}'s turn", "輪到 {name}", "轮到 {name}"),
    "claims_on": (
        "claims on {name}'s {tile}",
        "可吃碰 {name} 打出的 {tile}",
        "可吃碰 {name} 打出的 {tile}",
    ),
    "hand_over": ("hand over", "本局完", "本局结束"),
    "game_over": ("game over", "完局", "终局"),
    "status": ("status: {status}", "狀態：{status}", "状态：{status}"),
    "reconnecting": ("reconnecting…", "重新連線中…", "重新连接中…"),
    "win_breakdown": ("Win breakdown: ", "計番：", "计番："),
    "wins": ("{name} wins {how} with ", "{name} {how}，糊 ", "{name} {how}，和 "),
    "how_self_drawn": ("self-drawn (自摸)", "自摸", "自摸"),
    "how_discard": ("on a discard", "食出銃", "点和"),
    "how_robbing_kong": ("robbing a kong (搶槓)", "搶槓", "抢杠"),
    "how_flowers": ("on flowers", "花糊", "花和"),
    "from": (" from {name}", "（{name} 出銃）", "（{name} 点炮）"),
    "hand": ("hand ", "手牌 ", "手牌 "),
    "col_pattern": ("pattern", "番種", "番种"),
    "col_english": ("English", "", ""),
    "col_value": ("value", "番數", "番数"),
    "house": (" (house)", "（家規）", "（家规）"),
    "total": ("total", "合共", "合计"),
    "payments": ("Payments: ", "找數：", "支付："),
    "net": ("\nNet: ", "\n淨得：", "\n净得："),
    "drawn": ("Hand {n}: drawn ({reason}) — no winner", "第 {n} 局：流局", "第 {n} 局：流局"),
    "dealer": (", dealer (莊) {name}", "，莊家 {name}", "，庄家 {name}"),
    "winds": ("\nWinds: ", "\n門風：", "\n门风："),
    "summary": ("Game summary", "總結", "总结"),
    "summary_of": ("  ({n} hands, {ruleset})", "（{n} 局，{ruleset}）", "（{n} 局，{ruleset}）"),
    "col_player": ("player", "玩家", "玩家"),
    "col_score": ("score", "分數", "分数"),
    "ledger": ("Ledger", "賬目", "账目"),
    "col_hand": ("hand", "局", "局"),
    "col_payer": ("payer", "付款", "付款"),
    "col_payee": ("payee", "收款", "收款"),
    "col_amount": ("amount", "數目", "数目"),
    "col_reason": ("reason", "原因", "原因"),
    "last_payments": (
        "last 12 of {n} payments",
        "最後 12 筆（共 {n} 筆）",
        "最后 12 笔（共 {n} 笔）",
    ),
    "room_code": ("Room code {code}", "房間號碼 {code}", "房间号 {code}"),
    "share": (
        " — share it with your friends.  Rule set {ruleset}.  ",
        "——把它告訴朋友。規則：{ruleset}。",
        "——把它告诉朋友。规则：{ruleset}。",
    ),
    "n_hands": ("{n} hands", "{n} 局", "{n} 局"),
    "length": ("Length {length}; ", "局數：{length}；", "局数：{length}；"),
    "turn_timer": ("turn timer {n}s; ", "出牌時限 {n} 秒；", "出牌时限 {n} 秒；"),
    "no_turn_timer": ("no turn timer; ", "出牌不限時；", "出牌不限时；"),
    "claim_timer": ("claim timer {n}s.", "吃碰時限 {n} 秒。", "吃碰时限 {n} 秒。"),
    "no_claim_timer": ("no claim timer.", "吃碰不限時。", "吃碰不限时。"),
    "seat": ("  seat {n}: ", "  第 {n} 位：", "  第 {n} 位："),
    "empty": ("(empty)", "（空位）", "（空位）"),
    "bot": (" [bot]", " [電腦]", " [机器人]"),
    "you": (" (you)", "（你）", "（你）"),
    "ready": (" ready", " 準備好", " 已准备"),
    "not_ready": (" not ready", " 未準備", " 未准备"),
    "watching": ("  watching: {names}\n", "  旁觀：{names}\n", "  观战：{names}\n"),
    "you_host": (
        "  You are the host: fill the seats (a adds bots), then g starts.\n",
        "  你是房主：坐滿四個位子（a 加電腦），然後按 g 開始。\n",
        "  你是房主：坐满四个位置（a 加机器人），然后按 g 开始。\n",
    ),
    # the prompt line
    "keys_lobby": (
        "[s] sit  [u] stand  [a] add bots  [r] ready / not ready  [g] start (host)  [q] leave  [Tab] chat",
        "[s] 坐下  [u] 起身  [a] 加電腦  [r] 準備／取消  [g] 開始（房主）  [q] 離開  [Tab] 聊天",
        "[s] 坐下  [u] 起身  [a] 加机器人  [r] 准备／取消  [g] 开始（房主）  [q] 离开  [Tab] 聊天",
    ),
    "keys_lobby_head": ("Lobby: ", "房間：", "房间："),
    "keys_host_head": ("\nHost: ", "\n房主：", "\n房主："),
    "keys_host": (
        "[e] remove a bot  [o] swap seats  [K] kick  [H] make host",
        "[e] 移除電腦  [o] 換位  [K] 踢出  [H] 設為房主",
        "[e] 移除机器人  [o] 换位  [K] 踢出  [H] 设为房主",
    ),
    "keys_over_head": ("Game over: ", "完局：", "终局："),
    "keys_over": (
        "[m] rematch  [L] save the game log  [q] leave  [Tab] chat",
        "[m] 再來一局  [L] 儲存牌譜  [q] 離開  [Tab] 聊天",
        "[m] 再来一局  [L] 保存牌谱  [q] 离开  [Tab] 聊天",
    ),
    "paused_by": (" PAUSED by {name} ", " {name} 暫停了牌局 ", " {name} 暂停了牌局 "),
    "paused_host": (
        "  [P] resume  [K] kick  [H] make host",
        "  [P] 繼續  [K] 踢出  [H] 設為房主",
        "  [P] 继续  [K] 踢出  [H] 设为房主",
    ),
    "paused_wait": ("  the host resumes it", "  等房主繼續", "  等房主继续"),
    "sent": ("sent; waiting for the server…", "已送出，等伺服器回覆…", "已发送，等服务器回复…"),
    "waiting_others": ("waiting for the others…", "等其他人…", "等其他人…"),
    "next_hand_soon": ("next hand soon…", "快發下一局…", "马上发下一局…"),
    "confirm": (
        " (or the same key) confirms, any other key cancels",
        "（或同一個鍵）確認，其他鍵取消",
        "（或同一个键）确认，其他键取消",
    ),
    "choose": ("←/→ choose, ", "←/→ 選牌，", "←/→ 选牌，"),
    "enter_discard": ("Enter discard", "Enter 打出", "Enter 打出"),
    "ting_hint": (
        ": declare ting with the chosen tile",
        "：用選中的牌叮",
        "：用选中的牌叮",
    ),
    "pass": ("pass  ", "過  ", "过  "),
    "claim_keys": (
        "  (W win, P pung, K kong, C chow)",
        "  （W 食糊，P 碰，K 槓，C 上）",
        "  （W 和，P 碰，K 杠，C 吃）",
    ),
    "win_keys": ("  (W win, K kong)", "  （W 食糊，K 槓）", "  （W 和，K 杠）"),
    # actions, as the prompt lists them
    "act_discard": ("discard", "打出", "打出"),
    "act_ting": ("declare 叮 (ting) and discard", "叮並打出", "叮并打出"),
    "act_chow": ("chow", "上", "吃"),
    "act_pung": ("pung", "碰", "碰"),
    "act_kong": ("kong", "槓", "杠"),
    "act_concealed_kong": ("concealed kong", "暗槓", "暗杠"),
    "act_added_kong": ("add to a pung (kong)", "加槓", "加杠"),
    "act_win": ("win (食糊)", "食糊", "和牌"),
    "act_pass": ("pass", "過", "过"),
    # mahjong-cli games ROOM
    "games_head": (
        "Games of room {room}, newest first:",
        "房間 {room} 的牌局（新的在前）：",
        "房间 {room} 的牌局（新的在前）：",
    ),
    "games_none": (
        "Room {room} has no finished game you may read.",
        "房間 {room} 沒有你可以看的已完牌局。",
        "房间 {room} 没有你可以看的已完牌局。",
    ),
    "games_line": (
        "{when}  {ruleset}  {hands} hands  {players}",
        "{when}  {ruleset}  {hands} 局  {players}",
        "{when}  {ruleset}  {hands} 局  {players}",
    ),
    "games_replay": ("    replay: {cmd}", "    重播：{cmd}", "    回放：{cmd}"),
}

_current: list[Lang] = ["en"]


def lang() -> Lang:
    """The current language."""
    return _current[0]


def set_lang(value: Lang) -> None:
    _current[0] = value


def tr(key: str, **fields: object) -> str:
    """The message ``key`` in the current language, its fields filled in."""
    return MESSAGES[key][LANGS.index(_current[0])].format(**fields)


def from_locale(env: Mapping[str, str]) -> Lang:
    """The language the environment's locale asks for (English when it asks for none we have)."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(var, "")
        if not value:
            continue
        tag = value.split(":")[0].split(".")[0].replace("_", "-").lower()
        if tag.startswith("zh"):
            return "zh-Hant" if re.search(r"-(hant|tw|hk|mo)\b", tag) else "zh-Hans"
        return "en"
    return "en"


@cache
def _patterns() -> dict[str, dict[str, list[str]]]:
    data = json.loads(NAMES.read_text(encoding="utf-8"))
    out: dict[str, dict[str, list[str]]] = data["patterns"]
    return out


def pattern_name(ruleset: str, pattern: str, fallback: str, in_lang: Lang | None = None) -> str:
    """A pattern's Chinese name: Simplified in 简体中文, else Traditional (``fallback``, the
    server's own, for a pattern the generated file does not know)."""
    names = _patterns().get(ruleset, {}).get(pattern)
    if not names:
        return fallback
    return names[2] if (in_lang or _current[0]) == "zh-Hans" else names[1]


RULESET_NAMES: dict[str, tuple[str, str, str]] = {
    "mcr": ("Chinese Official (MCR)", "國標麻將", "国标麻将"),
    "hk-tw16": ("Hong Kong–Taiwanese 16 tiles", "港式台牌十六張", "港式台牌十六张"),
    "tw16-tai": ("16-tile tai table", "台灣十六張（計台）", "台湾十六张（计台）"),
    "zung-jung": ("Zung Jung", "中庸麻雀", "中庸麻将"),
    "zung-jung-v3.3": ("Zung Jung v3.3", "中庸麻雀 3.3 版", "中庸麻将 3.3 版"),
    "riichi": ("Japanese riichi", "日本立直麻將", "日本立直麻将"),
}


def ruleset_name(ruleset: str) -> str:
    names = RULESET_NAMES.get(ruleset)
    return names[LANGS.index(_current[0])] if names else ruleset
