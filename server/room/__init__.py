"""The room logic: a room's state, its commands and their one pure step, and what each seat may see of it.

Everything here is pure (``.importlinter``'s contract, docs/server.md "Layers"): no event
loop, network, Redis, clock or randomness of its own; the shell (``server/``'s other
modules) loads a room, calls :func:`server.room.commands.step` and commits its outcome.
"""

import mahjong_native  # noqa: F401  (first: selects the compiled or the pure modules)
