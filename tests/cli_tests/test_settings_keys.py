"""F2 / F3 / F4 switch the seat's play settings the server keeps (auto-win, no claims,
auto-discard): pressed in the terminal client, they are what the server's next snapshot
says, against a real server."""

from __future__ import annotations

import pytest

from cli_tests.helpers import wait_for
from cli_tests.test_layout import FAST, seated_game
from clients.cli.app import MahjongApp
from protocol import messages as m

pytestmark = pytest.mark.timeout(90)


async def test_function_keys_switch_the_seats_play_settings(mahjong_server) -> None:
    app = MahjongApp(mahjong_server.url, "Set", autoconnect=True, plain=True,
                     create="mcr", create_options={**FAST, "turn_seconds": 60})  # fmt: skip
    async with app.run_test(size=(160, 50)) as pilot:
        room = await seated_game(pilot, app)
        await pilot.press("f3")
        await wait_for(pilot, lambda: room.toggles.get("no_claims") is True, what="no claims")

        async def server_says() -> dict:
            assert app.session is not None
            snap = await app.session.request(m.Resync(room=room.id, since=0))
            assert isinstance(snap, m.Snapshot)
            return dict(snap.you.get("toggles") or {})

        for _ in range(50):  # the request is on its way
            if (await server_says()).get("no_claims") is True:
                break
            await pilot.pause(0.05)
        assert await server_says() == {"auto_win": False, "no_claims": True, "auto_discard": False}
        await pilot.press("f2", "f3")
        for _ in range(50):
            if (await server_says()).get("auto_win") is True:
                break
            await pilot.pause(0.05)
        assert await server_says() == {"auto_win": True, "no_claims": False, "auto_discard": False}
