"""The mahjong game server (`mahjong-server`): rooms in Redis, fan-out, timers, embedded Redis."""

import mahjong_native  # noqa: F401  (first: selects the compiled or the pure modules)
