"""One process's plumbing, below every other layer: configuration, the injected clock, logs, metrics, child processes, memory and collector tools, what restarts taught."""
