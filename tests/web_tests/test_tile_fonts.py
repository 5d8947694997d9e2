"""The tiles draw the same with and without a CJK font: a Chromium whose fontconfig sees only
DejaVu (no CJK font at all) draws all 42 tiles pixel for pixel as one that has Debian's
fonts-noto-cjk, and no tile's SVG holds ``<text>``. A control image that does use text (萬 in
an SVG ``<text>``, as the tiles did before) draws differently in the two, which shows that the
font-less browser really has no CJK font."""

from __future__ import annotations

import io
import subprocess
import tempfile
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from tests.web_tests.conftest import ARGS, CHROMIUM

pytestmark = pytest.mark.timeout(120)

NO_CJK_FONTS = "/usr/share/fonts/truetype/dejavu"
CONTROL = "data:image/svg+xml;charset=utf-8," + urllib.parse.quote(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 80" width="60" height="80">'
    '<text x="30" y="60" font-size="40" text-anchor="middle">萬</text></svg>'
)
DRAW = """async ([control]) => {
  const box = document.createElement('div');
  box.id = 'tiles';
  box.style.cssText = 'position:fixed;left:0;top:0;z-index:99;background:#fff;display:flex;flex-wrap:wrap;width:660px';
  const srcs = [...window.mahjongTiles.codes.map(c => window.mahjongTiles.url(c)), window.mahjongTiles.url('back')];
  for (const src of [...srcs, control]) {
    const img = document.createElement('img');
    img.src = src; img.width = 60; img.height = 80;
    if (src === control) img.id = 'control';
    (src === control ? document.body : box).appendChild(img);
  }
  document.body.appendChild(box);
  await Promise.all([...document.querySelectorAll('#tiles img, #control')].map(i => i.decode()));
  return srcs.map(s => decodeURIComponent(s.slice(s.indexOf(',') + 1)));
}"""


@pytest.fixture(scope="module")
def fontless_browser(browser: Any) -> Iterator[Any]:
    """A second Chromium (on the same Playwright) whose fontconfig knows DejaVu only."""
    with tempfile.TemporaryDirectory(prefix="mahjong-fonts-") as tmp:
        conf = Path(tmp) / "fonts.conf"
        conf.write_text(
            '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
            f"<dir>{NO_CJK_FONTS}</dir><cachedir>{tmp}/cache</cachedir></fontconfig>"
        )
        env = {"FONTCONFIG_FILE": str(conf), "HOME": tmp, "PATH": "/usr/bin:/bin"}
        cjk = subprocess.run(
            ["fc-list", ":lang=zh", "family"], env=env, capture_output=True, text=True, check=True
        )
        assert cjk.stdout.strip() == "", cjk.stdout  # really no CJK font
        b = browser.browser_type.launch(executable_path=CHROMIUM, args=ARGS, env=env)
        yield b
        b.close()


def draw(b: Any, url: str) -> tuple[Image.Image, Image.Image, list[str]]:
    ctx = b.new_context(viewport={"width": 800, "height": 600})
    page = ctx.new_page()
    page.goto(url + "/")
    page.wait_for_function("() => window.mahjongTiles")
    svgs: list[str] = page.evaluate(DRAW, [CONTROL])
    tiles = page.locator("#tiles")
    shot = Image.open(io.BytesIO(tiles.screenshot())).convert("RGB")
    control = Image.open(io.BytesIO(page.locator("#control").screenshot())).convert("RGB")
    ctx.close()
    return shot, control, svgs


def differing(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels that differ by more than a little."""
    assert a.size == b.size, (a.size, b.size)
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 24 else 0)
    return diff.histogram()[255] / (a.size[0] * a.size[1])


def test_tiles_draw_the_same_without_a_cjk_font(
    browser: Any, fontless_browser: Any, base_url: str
) -> None:
    with_fonts, control_fonts, svgs = draw(browser, base_url)
    without, control_none, svgs_none = draw(fontless_browser, base_url)
    assert len(svgs) == 43 and svgs == svgs_none
    for svg in svgs:
        assert "<text" not in svg and "font-family" not in svg, svg[:200]
    assert differing(with_fonts, without) < 0.001
    # the control, drawn with a font: the system's CJK font in one, nothing (a box) in the other
    assert differing(control_fonts, control_none) > 0.02
