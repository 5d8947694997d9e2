"""The browser client's speed (issue 38, docs/web.md "Measured"): one whole hand played in
Debian's Chromium against a real ``mahjong-server`` on loopback (one person, three bots),
then the page's own Performance measures (src/ui/perf.ts):

* ``mj:frame→screen``: from an ``events`` frame arriving on the WebSocket to the next paint
  after it (decode, reducer, render, layout, paint), p50 / p95 / max over the hand;
* ``mj:discard→river``: from a click on Discard to the paint that shows the tile in your
  river (the round trip to the server included), p50 / p95 / max;
* the bundle: each file of ``server/webapp/assets`` as the server sends it (the ``.gz``).

A benchmark, not a test: it prints figures (aims: frame p95 ≤ 50 ms, discard ≤ 100 ms).

    python benchmarks/bench_web.py [--hands 1] [--bot-delay 300] [--cpu-throttle 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web_tests.conftest import ARGS, CHROMIUM, serving  # noqa: E402
from tests.web_tests.test_browser import add_bot, result_shown, sit_ready, step  # noqa: E402


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def create(page: Any, url: str, hands: int, bot_delay: int) -> None:
    page.goto(url + "/")
    page.get_by_test_id("name").fill("Bench")
    page.get_by_test_id("name").blur()
    page.wait_for_function("() => window.mahjong && window.mahjong.state.status === 'online'")
    page.get_by_test_id("length").select_option("hands")
    page.get_by_test_id("hands").fill(str(hands))
    page.get_by_test_id("turn-seconds").fill("0")
    page.get_by_test_id("claim-seconds").fill("0")
    page.get_by_test_id("bot-delay").fill(str(bot_delay))
    page.get_by_test_id("hand-pause").fill("0")
    page.get_by_test_id("create").click()
    page.wait_for_function("() => Object.values(window.mahjong.state.rooms)[0]?.you.seat === 0")


def run(hands: int, bot_delay: int, throttle: float) -> None:
    from playwright.sync_api import sync_playwright

    with serving() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        page.set_default_timeout(15_000)
        if throttle > 1:
            cdp = page.context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        create(page, url, hands, bot_delay)
        for s in (1, 2, 3):
            add_bot(page, s)
        sit_ready(page, 0)
        page.get_by_test_id("start").click()
        page.get_by_test_id("table").wait_for()
        end = time.monotonic() + 300
        while not page.get_by_test_id("game-over").count():
            assert time.monotonic() < end, "the game did not end"
            if result_shown(page) and page.get_by_test_id("result-close").is_visible():
                page.get_by_test_id("result-close").click()
            if not step(page):
                page.wait_for_timeout(20)
        page.wait_for_timeout(300)
        got = page.evaluate(
            "() => Object.fromEntries(['mj:frame→screen', 'mj:discard→river'].map(n =>"
            " [n, performance.getEntriesByName(n).map(e => e.duration)]))"
        )
        browser.close()
    for name, xs in got.items():
        if not xs:
            print(f"{name}: no measure")
            continue
        print(
            f"{name}: n={len(xs)} p50={statistics.median(xs):.1f} ms "
            f"p95={pct(xs, 95):.1f} ms max={max(xs):.1f} ms"
        )
    assets = ROOT / "server" / "webapp" / "assets"
    total = 0
    for f in sorted(assets.glob("*.gz")):
        size = f.stat().st_size
        print(f"bundle {f.name[: -len('.gz')]}: {size / 1000:.1f} KB gzip")
        if not f.name.startswith("tiles-"):
            total += size
    print(f"bundle without the tile art: {total / 1000:.1f} KB gzip (budget 150 KB)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=1)
    ap.add_argument("--bot-delay", type=int, default=300, help="bots' think time, ms")
    ap.add_argument("--cpu-throttle", type=float, default=1.0, help="Chromium CPU slowdown")
    a = ap.parse_args()
    run(a.hands, a.bot_delay, a.cpu_throttle)


if __name__ == "__main__":
    main()
