"""The built browser client's size: its JavaScript and CSS, all three languages included,
stay within 150 KB gzip; the tile art (its own chunk, tiles-*.js, with the glyph outlines) is
counted apart (docs/web.md "Languages", "Tile art"). The sizes are those of the .gz copies
the build writes and the server sends."""

from __future__ import annotations

from pathlib import Path

from server.net.web import DEFAULT_ROOT

BUDGET = 150 * 1024


def sizes() -> dict[str, int]:
    assets = Path(DEFAULT_ROOT) / "assets"
    assert assets.is_dir(), "no web bundle: build it (bash scripts/serve, or npm run build)"
    return {p.name[: -len(".gz")]: p.stat().st_size for p in assets.glob("*.gz")}


def test_the_code_and_the_words_stay_within_150_kb_gzip() -> None:
    s = sizes()
    counted = {
        n: v for n, v in s.items() if n.endswith((".js", ".css")) and not n.startswith("tiles-")
    }
    assert any(n.startswith("i18n-") for n in counted), s  # the languages are in the count
    assert any(n.startswith("index-") and n.endswith(".js") for n in counted), s
    assert sum(counted.values()) <= BUDGET, counted
    tiles = [n for n in s if n.startswith("tiles-")]
    assert len(tiles) == 1, s  # the tile art, apart
