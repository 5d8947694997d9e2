"""The per-action code makes no reference cycles: everything it allocates is freed by
reference counting, so the cycle collector has nothing to find. That is what makes
``--gc-freeze-seconds`` (freeze the survivors, never walk them again) free of leaks: a cycle
that becomes garbage after being frozen would never be collected. A recursive closure in the
scorer's suit splitter made one cycle per cache miss (~1,000 in 20 s of a 10-room load test)."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable

import pytest

from scoring import decompose
from server.app import App
from server.process.config import Config
from server.room import frames as framing
from server_tests.test_sparse import VIEWS, _entries


def cyclic_garbage(fn: Callable[[], None]) -> Counter[str]:
    """The objects only the cycle collector could free that ``fn`` left, by type."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds goes to gc.garbage
    try:
        fn()
        gc.collect()
        return Counter(type(o).__qualname__ for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


@pytest.mark.parametrize("ruleset", ["zung-jung", "hk-tw16", "mcr"])
def test_playing_and_framing_make_no_cycles(ruleset: str) -> None:
    app = App(Config(), None)  # type: ignore[arg-type]
    _entries(ruleset, seed=1, n=50, app=app)  # imports and first-use caches, not counted

    def play() -> None:
        decompose._suit_splits.cache_clear()  # the splitter's cache misses happen again
        decompose._suit_ok.cache_clear()
        entries = _entries(ruleset, seed=11, n=300, app=app)
        for v, entry in enumerate(entries, start=1):
            for view in VIEWS:
                framing.events_frame("r_1", v, entry, view)

    assert cyclic_garbage(play) == Counter()


def test_the_suit_splitter_makes_no_cycles() -> None:
    def split() -> None:
        decompose._suit_splits.cache_clear()
        for c in [(1, 1, 1, 2, 2, 2, 3, 3, 3), (3, 1, 1, 1, 2, 1, 1, 1, 3), (2, 0, 0, 0, 0, 0)]:
            assert decompose._suit_splits(c, False)

    assert cyclic_garbage(split) == Counter()


class _Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle


@pytest.mark.parametrize("full_every", [0.0, 0.3])
async def test_freeze_loop_frees_frozen_cycles_only_at_its_full_collection(
    full_every: float,
) -> None:
    """A cycle frozen while alive and dropped afterwards stays (reference counting cannot
    free it, the frozen generation is never walked) until the loop's full collection."""
    import asyncio
    import weakref

    from server.app import freeze_loop

    node = _Node()
    gone = weakref.ref(node)
    task = asyncio.create_task(freeze_loop(0.02, full_every))
    try:
        await asyncio.sleep(0.1)  # frozen, alive
        del node
        gc.collect()  # a full collection does not walk the frozen generation
        assert gone() is not None
        await asyncio.sleep(0.6)
        assert (gone() is None) == (full_every > 0)
    finally:
        task.cancel()
        gc.unfreeze()
        gc.collect()
