"""``mahjong-loadtest`` and the bare-websockets room-broadcast baseline (not a pure package:
asyncio and websockets). See docs/loadtest.md."""
