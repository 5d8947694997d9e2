"""The PNG chart of a load-test report: throughput and latency over time (matplotlib, the
optional ``loadtest`` extra)."""

from __future__ import annotations

from typing import Any

__all__ = ["write_chart"]


def write_chart(rep: dict[str, Any], path: str) -> None:
    try:
        import matplotlib
    except ImportError:
        raise SystemExit(
            "the chart needs matplotlib: pip install 'mahjong-table[loadtest]'"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    parts = [(k, rep[k]) for k in ("game", "baseline") if k in rep]
    fig, axes = plt.subplots(2, 1, figsize=(10, 7), sharex=True)
    ax_t, ax_l = axes
    colors = {"game": "tab:blue", "baseline": "tab:orange"}
    for name, r in parts:
        series = r["series"]
        t = [s["t"] for s in series]
        c = colors[name]
        ax_t.plot(t, [s["actions"] for s in series], label=f"{name} actions/s", color=c)
        ax_l.plot(t, [s["p50_ms"] for s in series], label=f"{name} p50", color=c)
        ax_l.plot(t, [s["p99_ms"] for s in series], label=f"{name} p99", color=c, linestyle="--")
    ax_t.set_ylabel("actions / s")
    ax_t.legend(loc="lower right")
    ax_t.grid(alpha=0.3)
    ax_l.set_ylabel("action → all four delivered (ms)")
    ax_l.set_xlabel("seconds")
    ax_l.set_yscale("log")
    ax_l.legend(loc="upper right")
    ax_l.grid(alpha=0.3)
    title = f"mahjong-loadtest: {rep.get('rooms')} rooms, interval {rep.get('interval_s')} s"
    if rep.get("ratio_game_over_baseline") is not None:
        title += f" — game/baseline = {rep['ratio_game_over_baseline']}"
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
