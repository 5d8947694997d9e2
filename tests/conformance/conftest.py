"""The conformance suite's fixtures (helpers in conformance_lib.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
from conformance_lib import FAST_FLAGS, Peer, ServerProcess


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path_factory.mktemp("conformance"), *FAST_FLAGS)
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture
async def peers(server: ServerProcess) -> AsyncIterator[Callable[..., Any]]:
    opened: list[Peer] = []

    async def make(name: str | None = None, url: str | None = None) -> Peer:
        p = await Peer.open(url or server.url)
        opened.append(p)
        if name is not None:
            await p.hello(name)
        return p

    yield make
    for p in opened:
        await p.close()
