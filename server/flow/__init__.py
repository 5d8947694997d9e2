"""How a room's changes flow: commits to Redis, fan-out to this process's connections, the timer and healing loops, the bots' pool and retention."""
