"""What clients ask and what they are told: one connection's session, a handler per message, presence, snapshots, the graceful stop and the HTTP endpoints."""
