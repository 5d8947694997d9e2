// The catalogues: every language has every key (the same kind of value, the same parameters),
// no key is unused, the Chinese ones hold no Latin letters (the page in Chinese shows no English
// but names and codes), the server's error codes and the rule sets are all translated, and
// every pattern of every rule set has a name in all three languages (names.json).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGUES, LANGS, errorText, fromBrowser, hintNote, patternGloss, patternName, setLang } from "../src/i18n";
import { en } from "../src/i18n/en";
import names from "../src/i18n/names.json";

type Node = string | ((...a: never[]) => string) | { [k: string]: Node };

function leaves(node: Node, path = ""): [string, Node][] {
  if (typeof node === "object") return Object.entries(node).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
  return [[path, node]];
}

function shape(node: Node): string[] {
  return leaves(node).map(([k, v]) => `${k}:${typeof v === "function" ? `fn${v.length}` : typeof v}`);
}

/** Every string a value can show: a function called with sample arguments. */
function texts(node: Node): string[] {
  return leaves(node).map(([, v]) => (typeof v === "function" ? (v as (...a: unknown[]) => string)(...Array(v.length).fill(7)) : (v as string)));
}

const SRC = join(__dirname, "..", "src");
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.(ts|tsx)$/.test(n) && !/i18n\/(en|zh-Hant|zh-Hans)\.ts$/.test(p) ? [readFileSync(p, "utf8")] : [];
  });
}
const code = sources(SRC).join("\n");

describe("catalogues", () => {
  it.each(LANGS)("%s has every key of en, each of the same kind", (l) => {
    expect(shape(CATALOGUES[l] as unknown as Node)).toEqual(shape(en as unknown as Node));
    for (const s of texts(CATALOGUES[l] as unknown as Node)) expect(s.trim().length).toBeGreaterThan(0);
  });

  it.each(["zh-Hant", "zh-Hans"] as const)("%s holds no Latin letters", (l) => {
    const latin = texts(CATALOGUES[l] as unknown as Node).filter((s) => /[A-Za-z]/.test(s));
    expect(latin).toEqual([]);
  });

  it("every top-level key is used by the code (t.key, or CATALOGUES[l].key)", () => {
    const unused = Object.keys(en).filter((k) => !new RegExp(`(\\bt|\\])\\.${k}\\b`).test(code));
    expect(unused).toEqual([]);
  });

  it("every key of the maps read by a wire value is one the code or the wire uses", () => {
    const maps = ["lengths", "roomStatus", "winds", "actions", "toggles", "log", "tiles"] as const;
    for (const m of maps) {
      const unused = Object.keys(en[m]).filter((k) => !new RegExp(`["'.]${k.replace(".", "\\.")}\\b|\\b${k}:`).test(code));
      expect(unused, m).toEqual([]);
    }
  });

  it("translates every error code of the server and names every rule set", () => {
    expect(Object.keys(en.errors).sort()).toEqual(names.error_codes);
    expect(Object.keys(en.hintNotes).sort()).toEqual(names.hint_notes);
    expect(Object.keys(en.rulesets).sort()).toEqual(names.rulesets);
    expect(Object.keys(en.units).sort()).toEqual(names.rulesets);
  });
});

describe("the server's words by code", () => {
  it("words a hint note and an error by its code, and shows the server's for a code it does not know", () => {
    for (const l of LANGS) {
      setLang(l, false);
      const note = hintNote("below_minimum", 8, "ready, but no wait reaches 8");
      expect(note).toContain("8");
      expect(note === "ready, but no wait reaches 8").toBe(l === "en");
      expect(hintNote(undefined, 8, "an older server's note")).toBe("an older server's note");
      expect(hintNote("a_newer_code", 8, "a newer note")).toBe("a newer note");
      expect(errorText("a_newer_code", "its words")).toBe("its words");
    }
    setLang("en", false);
  });
});

describe("pattern names", () => {
  const patterns = names.patterns as Record<string, Record<string, string[]>>;
  it("every pattern id of every rule set has a name in all three languages", () => {
    expect(Object.keys(patterns).sort()).toEqual(names.rulesets);
    for (const [rs, ids] of Object.entries(patterns)) {
      expect(Object.keys(ids).length, rs).toBeGreaterThan(20);
      for (const [id, n] of Object.entries(ids)) {
        expect(n.length, `${rs} ${id}`).toBe(3);
        for (const s of n) expect(s.trim().length, `${rs} ${id}`).toBeGreaterThan(0);
        expect(/[A-Za-z]{3}/.test(n[1]!) || /[A-Za-z]{3}/.test(n[2]!), `${rs} ${id} ${n}`).toBe(false);
      }
    }
  });

  it("the page shows the current language's name", () => {
    setLang("zh-Hans", false);
    expect(patternName("mcr", "four-kongs", "?")).toBe("四杠");
    setLang("zh-Hant", false);
    expect(patternName("mcr", "four-kongs", "?")).toBe("四槓");
    expect(patternName("tw16-tai", "chicken-hand", "?")).toBe("雞胡");
    expect(patternName("nope", "x", "server's")).toBe("server's");
    setLang("en", false); // the rules' Chinese name, the English gloss below it
    expect(patternName("mcr", "four-kongs", "四杠")).toBe("四杠");
    expect(patternGloss("mcr", "four-kongs", "?")).toBe("Four Kongs");
    setLang("zh-Hant", false);
    expect(patternGloss("mcr", "four-kongs", "?")).toBeNull();
    setLang("en", false);
  });
});

describe("the first visit's language", () => {
  it.each([
    [["zh-TW", "en"], "zh-Hant"],
    [["zh-HK"], "zh-Hant"],
    [["zh-Hant-TW"], "zh-Hant"],
    [["zh-CN"], "zh-Hans"],
    [["zh"], "zh-Hans"],
    [["zh-Hans-SG"], "zh-Hans"],
    [["fr", "en-GB", "zh-TW"], "en"],
    [["fr", "zh-MO"], "zh-Hant"],
    [["ja"], "en"],
    [[], "en"],
  ] as const)("%j → %s", (tags, want) => {
    expect(fromBrowser(tags)).toBe(want);
  });
});
