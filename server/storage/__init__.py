"""What the server keeps in Redis: the store with its keys, scripts and round trips, the RESP connection of the hot path, Redis Cluster, and the embedded Redis."""
