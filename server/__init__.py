"""The mahjong game server (`mahjong-server`): rooms in Redis, fan-out, timers, embedded Redis."""
