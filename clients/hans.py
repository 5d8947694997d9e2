"""The 简体中文 catalogues of both clients, generated from their 繁體中文 ones with OpenCC.

Nobody types a Simplified line: the browser's ``clients/web/src/i18n/zh-Hans.ts`` is made
from ``zh-Hant.ts`` line by line, the terminal client's ``clients/cli/zh_hans.json`` from the
Traditional words of ``clients.cli.i18n.MESSAGES``. Each text goes through

1. :data:`BEFORE`, replacements on the Traditional text (a Hong Kong word OpenCC would carry
   over character by character);
2. OpenCC ``tw2sp`` (Traditional as Taiwan writes it → Simplified, with mainland phrases:
   伺服器 → 服务器);
3. :data:`AFTER`, replacements on the Simplified text: the mainland's mahjong words (和 for
   糊, 点炮 for 出銃, 机器人 for 电脑, …);
4. :data:`WEB_LINES` / :data:`CLI_LINES`, whole lines a Simplified reader wants worded
   differently, by key.

Every replacement says why. The reviewed terms of the pattern names (``clients.names.TERMS``:
槓/杠, 聽/听, 莊/庄, 么/幺 …) come out of these steps as they do there (the test checks it);
``clients.names.OVERRIDES`` itself is for names, not sentences (its 么 → 幺 would make 什么 什幺). ``--check`` (run by tests/cli_tests/test_hans.py) fails when a
generated file differs from what this makes::

    python -m clients.hans --write
    python -m clients.hans --check

OpenCC is a development dependency only (as for :mod:`clients.names`): the clients read the
generated files.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from clients.generated import write_or_check

__all__ = [
    "AFTER",
    "BEFORE",
    "CLI_LINES",
    "CLI_PATH",
    "WEB_HANS",
    "WEB_HANT",
    "WEB_LINES",
    "cli_catalogue",
    "lines_with_keys",
    "main",
    "to_hans",
    "web_catalogue",
]

ROOT = Path(__file__).resolve().parent
WEB_HANT = ROOT / "web" / "src" / "i18n" / "zh-Hant.ts"
WEB_HANS = ROOT / "web" / "src" / "i18n" / "zh-Hans.ts"
CLI_PATH = ROOT / "cli" / "zh_hans.json"

#: (Traditional, replacement, why), replaced before the conversion, in this order
BEFORE: tuple[tuple[str, str, str], ...] = (
    ("隻", "張", "tiles are counted 张 on the mainland (隻 would become the ambiguous 只)"),
    ("麻雀枱", "麻將桌", "the mahjong table: 麻雀枱 is Cantonese"),
    ("牌枱", "牌桌", "the table: 枱 is Cantonese"),
    ("麻雀", "麻將", "the game is 麻将 on the mainland (麻雀 is Cantonese)"),
)

#: (Simplified, replacement, why), replaced after the conversion, in this order
AFTER: tuple[tuple[str, str, str], ...] = (
    ("叫糊", "听牌", "ready: 听牌 on the mainland"),
    ("食出铳", "点和", "a win on a discard: 点和"),
    ("出铳", "点炮", "dealing into a win: 点炮"),
    ("食糊", "和牌", "to win: 和牌 (食糊 is Cantonese)"),
    ("糊", "和", "a win is 和 (hú) in mainland writing: 起和, 花和, 和牌"),
    ("电脑", "机器人", "a bot player: 机器人 (电脑, 'computer', is the Hong Kong word)"),
    ("旁观", "观战", "watching a game: 观战"),
    ("位子", "位置", "a seat: 位置"),
    ("离开中", "暂离", "away from the table: 暂离"),
    ("还未", "还没", "'not yet': 还没 in mainland speech"),
    ("等候", "等待", "waiting: 等待"),
    ("拷贝", "复制", "copy (text): 复制; tw2sp's 拷贝 is dated"),
    ("脱机", "离线", "offline (a person): 离线; tw2sp's 脱机 is for devices"),
    ("重新加载", "刷新", "reload a page: 刷新"),
    ("重新启动", "重启", "restart: 重启"),
    ("甚么", "什么", "'what': 什么"),
    ("完局", "终局", "the game's end: 终局"),
    ("合共", "合计", "the total: 合计 (合共 is Cantonese)"),
    ("自订", "自定", "custom: 自定"),
    ("空白键", "空格键", "the space bar: 空格键"),
    ("要求", "请求", "a request to the server: 请求"),
    ("用户端", "客户端", "a client program: 客户端"),
    ("终端机", "终端", "a terminal: 终端"),
    ("送出", "发送", "to send: 发送"),
    ("找数", "支付", "payments: 支付 (找數 is Cantonese)"),
    ("重播", "回放", "replaying a game: 回放 (重播 is a broadcast's rerun)"),
    ("纪录", "记录", "a game's record: 记录 (纪录 is a record set, as in sport)"),
    ("「", "“", "mainland quotation marks"),
    ("」", "”", "mainland quotation marks"),
)

#: web catalogue lines worded differently from the conversion: key path -> (value, why)
WEB_LINES: dict[str, tuple[str, str]] = {
    "langName": ('"简体中文"', "the language's own name (not the Traditional one's)"),
    "actions.chow": ('"吃"', "chow is 吃 on the mainland (上 in Hong Kong)"),
    "log.chow": ("(who, tile) => `${who} 吃 ${tile}`", "chow is 吃"),
    "titleClaim": ('"● 你可以吃碰杠和 — 麻将桌"', "上牌 (Hong Kong) is 吃碰杠和"),
    "soundTitle": ('"轮到你、吃碰、出牌和和牌的声音"', "上牌 (Hong Kong) is 吃碰"),
    "tiles.s": ("(n) => `${n} 条`", "the bamboo suit is 条 on the mainland (索 in Hong Kong)"),
    "waitsHint": ('"听："', "the waits: 听"),
    "roomStatus": (
        '{ lobby: "等待中", playing: "对局中", finished: "已结束", closed: "已关闭" }',
        "a finished room: 已结束 (已终局 is not said)",
    ),
    "winDiscard": (
        "(name, from) => `${name} 和 ${from} 点的炮`",
        "a win on a discard, as the mainland says it",
    ),
    "replaced": (
        '"这局牌已在另一个标签页或设备上打开。"',
        "a browser tab: 标签页 (分页 is Taiwanese)",
    ),
    "isReady": ('"✓ 已准备"', "ready in a lobby: 已准备"),
    "hintNotes.below_minimum": (
        "(min) => `已听牌，但没有一张听的牌达到起和 ${min}`",
        "the waits: 听",
    ),
    "createRoom": ('"创建房间"', "开房 reads as renting a hotel room on the mainland"),
    "newRoom": ('"新建房间"', "开新房间, as 开房"),
    "enterName": ('"输入名字后才能创建或加入房间。"', "开房, as createRoom"),
}

#: terminal catalogue words worded differently from the conversion: key -> (words, why)
CLI_LINES: dict[str, tuple[str, str]] = {
    "act_chow": ("吃", "chow is 吃 on the mainland (上 in Hong Kong)"),
    "claim_keys": ("  （W 和，P 碰，K 杠，C 吃）", "chow is 吃"),
    "win_keys": ("  （W 和，K 杠）", "a win is 和"),
    "from": ("（{name} 点炮）", "dealing into a win: 点炮"),
    "wins": ("{name} {how}，和 ", "a win is 和"),
    "hand_over": ("本局结束", "the hand is over: 本局结束 (本局完 is Cantonese)"),
    "ready": (" 已准备", "ready in a lobby: 已准备"),
    "next_hand_soon": ("马上发下一局…", "soon: 马上 (快 reads as 'nearly')"),
    "log_resumed": ("已在 {server} 恢复连接，名字：{name}", "resumed: 恢复 (回复 is 'reply')"),
    "hint_waits": ("听：", "the waits: 听"),
    "hint_then_waits": ("→ 听 ", "the waits: 听"),
}


def _converter() -> Callable[[str], str]:
    import opencc  # a development dependency: only the generator converts

    cc = opencc.OpenCC("tw2sp")
    convert: Callable[[str], str] = cc.convert
    return convert


def to_hans(text: str, convert: Callable[[str], str] | None = None) -> str:
    """A Traditional text in Simplified: :data:`BEFORE`, OpenCC ``tw2sp``, :data:`AFTER`."""
    for old, new, _why in BEFORE:
        text = text.replace(old, new)
    text = (convert or _converter())(text)
    for old, new, _why in AFTER:
        text = text.replace(old, new)
    return text


ENTRY = re.compile(r'^(\s*)("[^"]+"|[A-Za-z_]\w*): (.*?)(,?)$')


def lines_with_keys(text: str) -> Iterator[tuple[str, str | None]]:
    """Each line of a catalogue with the dotted path of the entry it holds (None: no entry)."""
    path: list[str] = []
    for line in text.splitlines():
        m = ENTRY.match(line)
        if line.strip() in ("}", "},"):
            if path:
                path.pop()
            yield line, None
        elif m and m.group(3) == "{":
            path.append(m.group(2).strip('"'))
            yield line, None
        elif m and not line.lstrip().startswith("//"):
            yield line, ".".join([*path, m.group(2).strip('"')])
        else:
            yield line, None


def web_catalogue(hant: str, convert: Callable[[str], str] | None = None) -> str:
    """zh-Hans.ts from the text of zh-Hant.ts."""
    convert = convert or _converter()
    out = [
        "// GENERATED by python -m clients.hans --write from zh-Hant.ts: do not edit (reviewed",
        "// wordings: clients/hans.py).",
    ]
    seen: set[str] = set()
    for line, key in lines_with_keys(hant):
        if line.startswith("// 繁體中文"):
            out.append("// 简体中文 (mainland usage). Every key of en.ts, typed by `Catalogue`.")
            continue
        if line.startswith("export const zhHant"):
            out.append(line.replace("zhHant", "zhHans"))
            continue
        if key in WEB_LINES:
            seen.add(key)
            m = ENTRY.match(line)
            assert m is not None
            out.append(f"{m.group(1)}{m.group(2)}: {WEB_LINES[key][0]}{m.group(4)}")
            continue
        out.append(to_hans(line, convert))
    if missing := set(WEB_LINES) - seen:
        raise SystemExit(f"clients/hans.py: WEB_LINES names keys zh-Hant.ts lacks: {missing}")
    return "\n".join(out) + "\n"


def cli_catalogue(convert: Callable[[str], str] | None = None) -> dict[str, str]:
    """The terminal client's Simplified words: key -> words."""
    from clients.cli.catalogue import MESSAGES

    convert = convert or _converter()
    if missing := set(CLI_LINES) - set(MESSAGES):
        raise SystemExit(f"clients/hans.py: CLI_LINES names unknown keys: {missing}")
    return {
        key: CLI_LINES[key][0] if key in CLI_LINES else to_hans(hant, convert)
        for key, (_en, hant) in sorted(MESSAGES.items())
    }


def _rendered() -> dict[Path, str]:
    convert = _converter()
    cli = json.dumps(cli_catalogue(convert), ensure_ascii=False, indent=0, sort_keys=True)
    return {
        WEB_HANS: web_catalogue(WEB_HANT.read_text(encoding="utf-8"), convert),
        CLI_PATH: cli + "\n",
    }


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    # (no option: a check)
    done = write_or_check(_rendered(), "clients.hans", args if "--write" in args else ["--check"])
    return done or 0


if __name__ == "__main__":
    raise SystemExit(main())
