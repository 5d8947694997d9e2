"""Run a checkout's benchmark script with the deals fixed: the same walls every run.

    python benchmarks/fixed_deals.py SEED SCRIPT [script options...]

The server draws each wall seed (and a game's id) from the operating system
(``secrets.token_hex`` / ``token_urlsafe`` in ``server.room.game_room``); here they come from
``random.Random(SEED)`` instead, so two runs, or two checkouts whose engines agree, play the
same games, and a count of instructions per action compares code, not deals (the random
walls of ``bench_hotpath.py`` move its figure by a few per mille to a few per cent). Works
for a checkout of any age (it patches ``secrets``, which every version calls at the time of
the deal), so ``benchmarks/ir_hotpath.sh`` can use it for a base worktree too
(``IR_DEAL_SEED``). Run from the checkout's root, with it on ``PYTHONPATH``.
"""

from __future__ import annotations

import random
import runpy
import secrets
import sys


def main() -> None:
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    rng = random.Random(int(sys.argv[1]))

    def token_hex(nbytes: int | None = 32) -> str:
        return rng.randbytes(nbytes or 32).hex()

    def token_urlsafe(nbytes: int | None = 16) -> str:
        return rng.randbytes(nbytes or 16).hex()

    secrets.token_hex = token_hex
    secrets.token_urlsafe = token_urlsafe
    script = sys.argv[2]
    sys.argv = [script, *sys.argv[3:]]
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
