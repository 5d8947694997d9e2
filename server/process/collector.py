"""The cycle collector's freeze loop: short collector pauses in a process holding thousands
of long-lived objects (the server; the load-test harness uses it too)."""

from __future__ import annotations

import asyncio
import gc
import time

__all__ = ["freeze_loop"]


async def freeze_loop(every: float, full_every: float = 0.0) -> None:
    """Every ``every`` seconds, collect the youngest generation (small: only what was
    allocated since the last time) and move every surviving object into the collector's
    permanent generation, so no later collection walks them again: pauses stay short however
    many connections and rooms the process holds. (The gen-0 counter is allocations minus
    deallocations: a commit frees the previous room state while allocating the next, so
    without this the young generation grows to hundreds of thousands of objects before the
    counter triggers a collection.)

    The price: a reference cycle that becomes garbage after being frozen is not collected
    until the next full collection, every ``full_every`` seconds (0: never): unfreeze,
    collect everything, freeze again -- one long pause then. The per-action code makes no
    cycles (``tests/server_tests/test_no_cycles.py``), so there is little to find; reference
    counting frees everything else as usual."""
    last_full = time.monotonic()
    while True:
        await asyncio.sleep(every)
        if full_every > 0 and time.monotonic() - last_full >= full_every:
            gc.unfreeze()
            gc.collect()
            last_full = time.monotonic()
        else:
            gc.collect(0)
        gc.freeze()
