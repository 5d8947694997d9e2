"""Raise the open-file limit of the current process (servers and load-test clients holding
thousands of sockets; the usual soft limit is 1024)."""

from __future__ import annotations

import contextlib

__all__ = ["raise_nofile_limit"]


def raise_nofile_limit(want: int | None = None) -> tuple[int, int]:
    """Raise the soft ``RLIMIT_NOFILE`` to ``want`` (default: the hard limit), never above
    the hard limit and never lower than it is. Returns the (soft, hard) limits now in force;
    a platform without ``resource`` (Windows) returns (-1, -1)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Linux
        return (-1, -1)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if want is None else want
    if hard != resource.RLIM_INFINITY:
        target = min(target, hard)
    if soft != resource.RLIM_INFINITY and target > soft:
        with contextlib.suppress(ValueError, OSError):  # not allowed: keep what we have
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)
