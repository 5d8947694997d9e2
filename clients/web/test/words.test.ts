// Tiles and log lines in words: every tile code the server sends has words in every
// language (the Chinese without a Latin letter), and the table's log line says its tile in
// them, as the replay's log does ("Bot 2 碰 1 筒", not "Bot 2 碰 1p").
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LANGS, setLang } from "../src/i18n";
import type { ServerMessage, SnapshotMessage, Tile } from "../src/protocol/types";
import { fromSnapshot } from "../src/state/reducer";
import { tileName } from "../src/tiles/art";
import { logLine } from "../src/ui/seat";

const SUITED = ["m", "p", "s"].flatMap((s) => ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"].map((n) => n + s));
const CODES = [...SUITED, "we", "ws", "ww", "wn", "dr", "dg", "dw", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8"] as Tile[];

afterEach(() => setLang("en", false));

describe("tile words", () => {
  it.each(LANGS)("%s: every tile has words of its own, none its code", (l) => {
    setLang(l, false);
    const words = CODES.map((c) => tileName(c));
    for (const [i, w] of words.entries()) {
      expect(w, CODES[i]).not.toBe(CODES[i]);
      if (l !== "en") expect(/[A-Za-z]/.test(w), `${CODES[i]}: ${w}`).toBe(false);
    }
    expect(new Set(words).size).toBe(CODES.length);
  });

  it("a red five is the five, red", () => {
    expect(tileName("0p" as Tile)).toBe("red 5 dots");
    setLang("zh-Hant", false);
    expect(tileName("0m" as Tile)).toBe("赤 5 萬");
  });
});

describe("the table's log line", () => {
  const dir = join(__dirname, "fixtures");
  const fx = JSON.parse(readFileSync(join(dir, readdirSync(dir).filter((f) => f.endsWith(".json")).sort()[0]!), "utf8")) as {
    views: { frames: { frame: ServerMessage }[] }[];
  };
  const snap = fx.views[0]!.frames.map((f) => f.frame).find((f) => f.type === "snapshot") as SnapshotMessage;
  const room = fromSnapshot(snap);

  it.each([
    ["en", "pungs 1 dots"],
    ["zh-Hant", "碰 1 筒"],
    ["zh-Hans", "碰 1 筒"],
  ] as const)("%s says a claim's tile in words", (l, said) => {
    setLang(l, false);
    const line = logLine(room, { key: "pung", who: 1, tile: "1p" });
    expect(line).toContain(said);
    expect(line).not.toContain("1p");
    expect(logLine(room, { key: "joined", who: "Ann" })).toContain("Ann");
  });
});
