"""Layout checks of the browser client for the geometry tests (Playwright pages).

``problems(page)`` lists what is wrong with the page as it is shown now, in words a failing
test prints:

* the page scrolls sideways;
* a control (button, input, select, link) or one of your tiles (hand, your melds, the tiles
  on the claim buttons) is not wholly inside the viewport — on the table, where nothing may
  need scrolling to play; on pages that scroll (home, lobby, a long dialog) each control is
  first scrolled into view, as a player would;
* it is under another element: ``document.elementFromPoint`` at its centre is neither it nor
  inside it;
* a touch target is under 44 px (both sides; a hand tile: its height — fourteen tiles share
  a phone's width);
* a tile on a claim button is narrower than 0.8 × a hand tile.
"""

from __future__ import annotations

from typing import Any

VIEWPORTS = {
    "phone": {"width": 390, "height": 844},
    "side": {"width": 844, "height": 390},
    "desktop": {"width": 1366, "height": 768},
}

_CHECK = r"""
async (fit) => {
  const out = [];
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  if (document.documentElement.scrollWidth > vw + 0.5)
    out.push(`scrolls sideways: ${document.documentElement.scrollWidth} > ${vw}`);
  const label = (e) => (e.dataset.testid || e.getAttribute('aria-label') || e.dataset.tile ||
    (e.textContent || '').trim().slice(0, 30) || e.tagName);
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    const cs = getComputedStyle(e);
    return cs.visibility !== 'hidden' && cs.display !== 'none';
  };
  const sel = 'button, input, select, a[href], textarea, [data-testid=hand] .tile, ' +
    '.my-melds .tile, .claim-tiles .tile';
  const els = [...document.querySelectorAll(sel)].filter(shown);
  const overlay = document.querySelector('.overlay');
  for (const e of els) {
    // with a dialog open only the dialog is yours to use
    if (overlay && !overlay.contains(e)) continue;
    if (!fit) e.scrollIntoView({block: 'nearest', inline: 'nearest'});
    if (!fit && overlay) await new Promise((ok) => requestAnimationFrame(ok));
    const r = e.getBoundingClientRect();
    const name = label(e);
    if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
      out.push(`outside the viewport: ${name} [${Math.round(r.left)},${Math.round(r.top)} ` +
        `${Math.round(r.right)},${Math.round(r.bottom)}] in ${vw}x${vh}`);
      continue;
    }
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === e || e.contains(hit))) {
      const by = hit ? (hit.dataset?.testid || hit.className || hit.tagName) : 'nothing';
      out.push(`covered: ${name} at (${Math.round(x)},${Math.round(y)}) by ${by}`);
    }
    const tile = e.classList.contains('tile');
    const target = e.tagName === 'INPUT' && (e.type === 'checkbox' || e.type === 'radio')
      ? (e.closest('label') || e) : e;
    const tr = target.getBoundingClientRect();
    const interactive = !tile || e.tagName === 'BUTTON';
    if (interactive && (tr.height < 43.5 || (!tile && tr.width < 43.5)))
      out.push(`touch target under 44 px: ${name} ${Math.round(tr.width)}x${Math.round(tr.height)}`);
  }
  const hand = [...document.querySelectorAll('[data-testid=hand] .tile img')].filter(shown);
  const claim = [...document.querySelectorAll('.claim-tiles .tile img')].filter(shown);
  if (hand.length && claim.length) {
    const hw = Math.max(...hand.map((e) => e.getBoundingClientRect().width));
    const cw = Math.min(...claim.map((e) => e.getBoundingClientRect().width));
    if (cw < 0.8 * hw - 0.5)
      out.push(`claim tiles ${cw.toFixed(1)} px < 0.8 x hand tiles ${hw.toFixed(1)} px`);
  }
  if (!fit) window.scrollTo(0, 0);
  return out;
}
"""


def problems(page: Any, *, fit: bool = True) -> list[str]:
    """What is wrong with the layout of ``page`` now (empty: nothing)."""
    page.wait_for_timeout(260)  # dialogs fade in, a selected tile rises (150-250 ms)
    found: list[str] = page.evaluate(_CHECK, fit)
    counts: dict[str, int] = {}
    for f in found:  # fourteen tiles too small are one problem
        counts[f] = counts.get(f, 0) + 1
    return [f if n == 1 else f"{f} (×{n})" for f, n in counts.items()]


def rect(page: Any, selector: str) -> dict[str, float] | None:
    """The bounding box of the first element matching ``selector`` (None: not there)."""
    box: dict[str, float] | None = page.evaluate(
        "s => { const e = document.querySelector(s); if (!e) return null;"
        " const r = e.getBoundingClientRect();"
        " return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,"
        " width: r.width, height: r.height}; }",
        selector,
    )
    return box


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["right"] <= b["left"]
        or b["right"] <= a["left"]
        or a["bottom"] <= b["top"]
        or b["bottom"] <= a["top"]
    )
