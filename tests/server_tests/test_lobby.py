from __future__ import annotations

import pytest

from server_tests.wsclient import Client

pytestmark = pytest.mark.timeout(60)


async def test_hello_and_create_join(server):
    a = await Client.connect(server.port, "a")
    w = await a.hello("alice")
    assert w["v"] == 1 and w["resumed"] is False and len(w["token"]) >= 22
    r = await a.request({"type": "create_room", "ruleset": w["rulesets"][0]})
    print(r)
    snap = await a.wait_for(lambda m: m["type"] == "snapshot")
    print(snap)
    await a.close()
