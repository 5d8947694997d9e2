// The tile art needs no font: no tile's SVG has <text>; every character, numeral and letter a
// tile shows is an outline from tiles/glyphs.ts (generated from Noto Sans CJK).
import { describe, expect, it } from "vitest";
import { back, tileSvg } from "../src/tiles/art";
import { GLYPHS } from "../src/tiles/glyphs";
import { ALL_TILES } from "../src/tiles/order";

describe("tile art", () => {
  it.each(ALL_TILES)("%s is drawn without text", (code) => {
    const svg = tileSvg(code);
    expect(svg).not.toMatch(/<text|font-family/);
    expect(svg.startsWith("<svg") && svg.endsWith("</svg>")).toBe(true);
  });

  it("draws the characters, numerals and letters as the font's outlines", () => {
    const uses = (code: string, ch: string) => tileSvg(code).includes(`d="${GLYPHS[ch]!.d}"`);
    expect(uses("5m", "萬") && uses("5m", "5")).toBe(true);
    expect(uses("we", "東") && uses("we", "E")).toBe(true);
    expect(uses("ws", "南") && uses("ww", "西") && uses("wn", "北")).toBe(true);
    expect(uses("dr", "中") && uses("dg", "發") && uses("f7", "3")).toBe(true);
    expect(back()).not.toMatch(/<text/);
  });
});
