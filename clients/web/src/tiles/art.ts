// The tile art: all 42 kinds drawn here as SVG (the project's own drawing, MIT like the rest
// of the code; docs/web.md "Tile art"). Each suit has its own shape as well as its colour, so
// colour-blind players tell them apart: characters a large numeral over a red 萬 on a
// red base bar, dots circles, bamboo sticks, winds a large letter with its character, dragons
// 中 / 發 / a blue frame, flowers petals and seasons a sun, each with its number. Characters,
// numerals and letters are outlines (./glyphs.ts, generated from Noto Sans CJK by
// `python -m clients.glyphs`), never <text>: a tile looks the same on a device with no CJK font.
import { t } from "../i18n";
import type { Tile } from "../protocol/types";
import { GLYPHS } from "./glyphs";

const W = 60;
const H = 80;
const INK = "#1b1b1b";
const RED = "#c0262d";
const GREEN = "#13704a";
const BLUE = "#1f4fa3";
const WIND = { we: ["E", "東"], ws: ["S", "南"], ww: ["W", "西"], wn: ["N", "北"] } as const;

function frame(inner: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}">` +
    `<rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="7" fill="#fbf8ef" stroke="#9c9482" stroke-width="2"/>` +
    `<rect x="1" y="${H - 8}" width="${W - 2}" height="7" rx="4" fill="#e4dcc6"/>` +
    inner +
    `</svg>`
  );
}

/** The glyphs of `s` as paths, centred on `x` with their baseline at `y`, `size` px per em. */
function text(x: number, y: number, size: number, fill: string, s: string): string {
  const k = size / 1000;
  const glyphs = [...s].map((ch) => {
    const g = GLYPHS[ch];
    if (!g) throw new Error(`no glyph for ${ch}: add it to clients/glyphs.py CHARS`);
    return g;
  });
  let left = x - (glyphs.reduce((w, g) => w + g.w, 0) * k) / 2;
  return glyphs
    .map((g) => {
      const at = left;
      left += g.w * k;
      return `<path transform="translate(${+at.toFixed(2)} ${y}) scale(${k} ${-k})" fill="${fill}" d="${g.d}"/>`;
    })
    .join("");
}

// pip positions for 1..9 in a 60×72 field
const PIPS: Record<number, [number, number][]> = {
  1: [[30, 36]],
  2: [[30, 20], [30, 52]],
  3: [[16, 16], [30, 36], [44, 56]],
  4: [[18, 20], [42, 20], [18, 52], [42, 52]],
  5: [[18, 18], [42, 18], [30, 36], [18, 54], [42, 54]],
  6: [[19, 16], [41, 16], [19, 36], [41, 36], [19, 56], [41, 56]],
  7: [[14, 12], [30, 20], [46, 28], [19, 44], [41, 44], [19, 60], [41, 60]],
  8: [[19, 12], [41, 12], [19, 28], [41, 28], [19, 44], [41, 44], [19, 60], [41, 60]],
  9: [[15, 14], [30, 14], [45, 14], [15, 36], [30, 36], [45, 36], [15, 58], [30, 58], [45, 58]],
};

function dots(n: number): string {
  const r = n === 1 ? 16 : n <= 4 ? 10 : n <= 6 ? 8.5 : 7;
  return (PIPS[n] ?? [])
    .map(([x, y], i) => {
      const c = n === 1 ? RED : (n === 7 && i < 3) || (n === 5 && i === 2) ? RED : i % 2 ? GREEN : BLUE;
      return (
        `<circle cx="${x}" cy="${y}" r="${r}" fill="none" stroke="${c}" stroke-width="${r > 9 ? 4 : 3}"/>` +
        `<circle cx="${x}" cy="${y}" r="${r / 3}" fill="${c}"/>`
      );
    })
    .join("");
}

function stick(x: number, y: number, h: number, c: string): string {
  return (
    `<rect x="${x - 3.5}" y="${y - h / 2}" width="7" height="${h}" rx="3" fill="${c}"/>` +
    `<rect x="${x - 4.5}" y="${y - 1.5}" width="9" height="3" rx="1" fill="${c}"/>` +
    `<line x1="${x}" y1="${y - h / 2 + 3}" x2="${x}" y2="${y + h / 2 - 3}" stroke="#fbf8ef" stroke-width="1.2"/>`
  );
}

function bamboo(n: number): string {
  if (n === 1) {
    // the bird of 1s, simplified: a tall green stalk with a red head and tail
    return (
      `<path d="M30 12 C44 14 46 30 34 36 C46 44 44 62 30 64 C18 62 16 46 26 38 C16 30 18 16 30 12Z" fill="${GREEN}"/>` +
      `<circle cx="30" cy="20" r="5" fill="${RED}"/><path d="M26 64 L30 70 L34 64Z" fill="${RED}"/>`
    );
  }
  const pos = PIPS[n] ?? [];
  const h = n <= 3 ? 26 : n <= 6 ? 20 : 15;
  return pos.map(([x, y], i) => stick(x, y, h, (n === 5 && i === 2) || (n === 9 && i % 3 === 1) ? RED : GREEN)).join("");
}

function characters(n: number): string {
  return (
    text(30, 36, 30, INK, String(n)) +
    text(30, 64, 24, RED, "萬") +
    `<rect x="10" y="68" width="40" height="3" rx="1.5" fill="${RED}"/>`
  );
}

function petals(fill: string, n: number, sun: boolean): string {
  const leaves = [0, 72, 144, 216, 288]
    .map(
      (a) =>
        sun
          ? `<rect x="28" y="14" width="4" height="12" rx="2" fill="${fill}" transform="rotate(${a + 36} 30 34)"/>`
          : `<ellipse cx="30" cy="22" rx="7" ry="11" fill="${fill}" opacity="0.85" transform="rotate(${a} 30 34)"/>`,
    )
    .join("");
  return leaves + `<circle cx="30" cy="34" r="${sun ? 9 : 6}" fill="${sun ? "#e0a100" : "#f4d35e"}"/>` + text(30, 68, 16, INK, String(n));
}

export function tileSvg(code: Tile): string {
  const n = Number(code[0]);
  const suit = code[1];
  if (code.length === 2 && n >= 1 && n <= 9 && (suit === "m" || suit === "p" || suit === "s")) {
    return frame(suit === "m" ? characters(n) : suit === "p" ? dots(n) : bamboo(n));
  }
  if (code in WIND) {
    const [letter, zh] = WIND[code as keyof typeof WIND];
    return frame(text(30, 44, 38, INK, zh) + text(30, 68, 18, BLUE, letter));
  }
  if (code === "dr") return frame(text(30, 50, 40, RED, "中") + `<rect x="10" y="66" width="40" height="4" fill="${RED}"/>`);
  if (code === "dg") return frame(text(30, 50, 40, GREEN, "發") + `<path d="M10 68 L50 68" stroke="${GREEN}" stroke-width="4" stroke-dasharray="6 3"/>`);
  if (code === "dw") {
    return frame(
      `<rect x="12" y="12" width="36" height="52" rx="3" fill="none" stroke="${BLUE}" stroke-width="4"/>` +
        `<rect x="19" y="19" width="22" height="38" rx="2" fill="none" stroke="${BLUE}" stroke-width="2"/>`,
    );
  }
  if (/^f[1-8]$/.test(code)) {
    const k = Number(code[1]);
    const flower = k <= 4;
    const colour = ["#c0262d", "#c2185b", "#6a1b9a", "#1f4fa3"][(k - 1) % 4] ?? RED;
    return frame(petals(colour, flower ? k : k - 4, !flower));
  }
  return back();
}

export function back(): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}">` +
    `<rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="7" fill="#1d6b50" stroke="#0f3b2e" stroke-width="2"/>` +
    `<rect x="8" y="8" width="${W - 16}" height="${H - 16}" rx="4" fill="none" stroke="#7fc3a4" stroke-width="1.5"/>` +
    `</svg>`
  );
}

const cache = new Map<string, string>();

/** A data: URL of the tile's SVG (or of a back for "back"), cached. */
export function tileUrl(code: Tile | "back"): string {
  let u = cache.get(code);
  if (!u) {
    u = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(code === "back" ? back() : tileSvg(code));
    cache.set(code, u);
  }
  return u;
}

/** Words for a tile in the page's language (alt text, screen readers, the log): "5 dots",
 * "red 5 dots", "east wind"; a code it does not know, as it is. */
export function tileName(code: Tile): string {
  const n = Number(code[1]);
  if (/^[1-9]m$/.test(code)) return t.tiles.m(Number(code[0]));
  if (/^[1-9]p$/.test(code)) return t.tiles.p(Number(code[0]));
  if (/^[1-9]s$/.test(code)) return t.tiles.s(Number(code[0]));
  if (/^0[mps]$/.test(code)) return t.tiles.red(tileName(`5${code[1]}` as Tile));
  if (/^f[1-4]$/.test(code)) return t.tiles.flower(n);
  if (/^f[5-8]$/.test(code)) return t.tiles.season(n - 4);
  switch (code) {
    case "we":
      return t.tiles.we;
    case "ws":
      return t.tiles.ws;
    case "ww":
      return t.tiles.ww;
    case "wn":
      return t.tiles.wn;
    case "dr":
      return t.tiles.dr;
    case "dg":
      return t.tiles.dg;
    case "dw":
      return t.tiles.dw;
    default:
      return code;
  }
}
