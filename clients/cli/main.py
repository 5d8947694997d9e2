"""``mahjong-cli``: the command line."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from clients.cli.i18n import LANGS, from_locale, set_lang

DEFAULT_URL = os.environ.get("MAHJONG_URL", "ws://127.0.0.1:8765")


def _token_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "mahjong-cli" / "tokens.json"


def add_lang(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--lang",
        choices=LANGS,
        default=from_locale(os.environ),
        help="the screen's language and pattern names: en, zh-Hant (繁體中文), zh-Hans (简体中文)"
        " (default: from the locale, LC_ALL / LC_MESSAGES / LANG)",
    )


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mahjong-cli",
        description="Play mahjong with friends at a mahjong-server, from a terminal.",
        epilog="Replay a saved game: mahjong-cli replay FILE. "
        "A room's past games: mahjong-cli games ROOM",
    )
    p.add_argument(
        "--url", default=DEFAULT_URL, help=f"server address [MAHJONG_URL] ({DEFAULT_URL})"
    )
    p.add_argument("--name", default=os.environ.get("MAHJONG_NAME", ""), help="your name")
    p.add_argument("--create", metavar="RULESET", help="create a room with this rule set at once")
    p.add_argument(
        "--length",
        default="four_rounds",
        help="with --create: one_round, two_rounds, four_rounds or hands",
    )
    p.add_argument("--hands", type=int, help="with --create --length hands: how many hands")
    p.add_argument(
        "--turn-seconds", type=int, help="with --create: the turn timer (0: none; server default)"
    )
    p.add_argument(
        "--claim-seconds", type=int, help="with --create: the claim timer (0: none; server default)"
    )
    p.add_argument(
        "--pause-seconds", type=int, help="with --create: the pause between hands (server default)"
    )
    p.add_argument(
        "--public",
        action="store_true",
        help="with --create: list the room for everyone (default: only who has the code)",
    )
    p.add_argument("--join", metavar="CODE", help="join the room with this code at once")
    p.add_argument("--bot", action="store_true", help="let the bot play for you (b toggles it)")
    p.add_argument(
        "--bell", action="store_true", help="ring the terminal bell on your turn (Ctrl+G toggles)"
    )
    p.add_argument(
        "--plain",
        action="store_true",
        help="tile codes (5p, we, dr) instead of the Unicode mahjong tiles",
    )
    add_lang(p)
    p.add_argument(
        "--no-colour", "--no-color", dest="colour", action="store_false", help="no colours"
    )
    p.add_argument(
        "--ca-file",
        default=os.environ.get("MAHJONG_CA_FILE"),
        help="wss:// only: verify the server with this CA bundle (e.g. a self-signed certificate)",
    )
    p.add_argument(
        "--insecure",
        action="store_true",
        help="wss:// only: do not verify the server's certificate (testing only)",
    )
    p.add_argument(
        "--new-player", action="store_true", help="do not resume the saved session for this server"
    )
    p.add_argument(
        "--token-file",
        type=Path,
        default=None,
        help="where resume tokens are kept (~/.config/mahjong-cli/tokens.json)",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["replay"]:
        return replay_main(argv[1:])
    if argv[:1] == ["games"]:
        return games_main(argv[1:])
    args = build_parser().parse_args(argv)
    set_lang(args.lang)
    from clients.cli.app import MahjongApp

    options = create_options(args)
    app = MahjongApp(
        args.url,
        args.name,
        plain=args.plain,
        colour=args.colour,
        bot=args.bot,
        bell=args.bell,
        create=args.create,
        create_options=options,
        join=args.join,
        token_file=None if args.new_player else (args.token_file or _token_file()),
        autoconnect=bool(args.name),
        ca_file=args.ca_file,
        insecure=args.insecure,
    )
    app.run()
    return 0


def create_options(args: argparse.Namespace) -> dict[str, object]:
    """The room options of ``--create`` (the same as the lobby's form)."""
    options: dict[str, object] = {"length": args.length}
    if args.hands is not None:
        options["hands"] = args.hands
    if args.turn_seconds is not None:
        options["turn_seconds"] = args.turn_seconds
    if args.claim_seconds is not None:
        options["claim_seconds"] = args.claim_seconds
    if args.pause_seconds is not None:
        options["hand_pause_ms"] = 1000 * args.pause_seconds
    if args.public:
        options["public"] = True
    return options


# options whose value may begin with '-' (a token is URL-safe base64: 1 in 64 begins with it),
# which argparse would take for an option of its own ("expected one argument")
VALUE_OPTIONS = ("--token",)


def glue_values(argv: list[str]) -> list[str]:
    """``--token -abc`` as ``--token=-abc``, so a value that begins with '-' is read as one."""
    out: list[str] = []
    it = iter(argv)
    for a in it:
        if a in VALUE_OPTIONS:
            value = next(it, None)
            out.append(a if value is None else f"{a}={value}")
        else:
            out.append(a)
    return out


def replay_main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(
        prog="mahjong-cli replay", description="Step through a finished game's log."
    )
    p.add_argument(
        "file",
        help="a game log saved with L at the end of a game, or the URL of a game in a "
        "server's archive: http(s)://<server>/api/games/<id>/log",
    )
    p.add_argument("--token", help="your player token (a game of a private room)")
    p.add_argument("--plain", action="store_true", help="plain-text tiles")
    add_lang(p)
    p.add_argument("--no-colour", "--no-color", dest="colour", action="store_false")
    args = p.parse_args(glue_values(argv))
    set_lang(args.lang)
    from clients.cli.replay import ReplayApp, ReplayError, load

    try:
        rp = load(args.file, args.token)
    except ReplayError as exc:
        print(f"mahjong-cli replay: {exc}", file=sys.stderr)
        return 2
    ReplayApp(rp, plain=args.plain, colour=args.colour).run()
    return 0


def games_main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(
        prog="mahjong-cli games",
        description="List a room's past games (from the server's archive), newest first, "
        "each with the command that replays it.",
    )
    p.add_argument("room", help="the room's code (or its id, r_…, once the room has closed)")
    p.add_argument(
        "--url", default=DEFAULT_URL, help=f"server address [MAHJONG_URL] ({DEFAULT_URL})"
    )
    p.add_argument(
        "--token",
        help="your player token (default: the one saved for this server by playing on it)",
    )
    p.add_argument("--token-file", type=Path, default=None, help="where resume tokens are kept")
    add_lang(p)
    args = p.parse_args(glue_values(argv))
    set_lang(args.lang)
    from clients.cli.games import http_base, lines, room_games
    from clients.cli.replay import ReplayError

    token = args.token or saved_token(args.token_file or _token_file(), args.url)
    base = http_base(args.url)
    try:
        listing = room_games(base, args.room, token)
    except ReplayError as exc:
        print(f"mahjong-cli games: {exc}", file=sys.stderr)
        return 2
    print("\n".join(lines(listing, base, args.room)))
    return 0


def saved_token(path: Path, url: str) -> str | None:
    """The token the terminal client saved for the server at ``url`` (None: none)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    tok = data.get(url) if isinstance(data, dict) else None
    return tok if isinstance(tok, str) else None


if __name__ == "__main__":
    sys.exit(main())
