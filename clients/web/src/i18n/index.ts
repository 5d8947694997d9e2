// The page's language: English, 繁體中文 or 简体中文 (docs/web.md "Languages"). Chosen from
// the browser's languages on the first visit, then remembered in localStorage; `t` is the
// current catalogue (a live binding: read it at render time), `<html lang>` follows it.
// Pattern names come from names.json, made from the rule data at build time (clients/names.py).
import { en } from "./en";
import { patterns } from "./names.json";
import type { Catalogue, Lang } from "./types";
import { zhHans } from "./zh-Hans";
import { zhHant } from "./zh-Hant";

export type { Catalogue, Lang };

export const LANGS: Lang[] = ["en", "zh-Hant", "zh-Hans"];
export const CATALOGUES: Record<Lang, Catalogue> = { en, "zh-Hant": zhHant, "zh-Hans": zhHans };
const KEY = "mahjong.lang";

/** The current catalogue. */
export let t: Catalogue = en;
let current: Lang = "en";
const listeners = new Set<() => void>();

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** The language for a browser's list of preferred languages (BCP 47 tags, best first):
 * the first Chinese or English one decides; Chinese is Traditional for Hant, TW, HK and MO. */
export function fromBrowser(tags: readonly string[]): Lang {
  for (const raw of tags) {
    const tag = raw.toLowerCase();
    if (tag === "en" || tag.startsWith("en-")) return "en";
    if (tag === "zh" || tag.startsWith("zh-")) {
      return /-(hant|tw|hk|mo)\b/.test(tag) ? "zh-Hant" : "zh-Hans";
    }
  }
  return "en";
}

export function lang(): Lang {
  return current;
}

/** Switch the page's language (remembered; `<html lang>` set; subscribers re-render). */
export function setLang(l: Lang, remember = true): void {
  current = l;
  t = CATALOGUES[l];
  if (remember) storage()?.setItem(KEY, l);
  if (typeof document !== "undefined") {
    document.documentElement.lang = l;
    document.title = t.title;
  }
  for (const fn of listeners) fn();
}

/** The remembered language, or the browser's. */
export function initLang(): void {
  const saved = storage()?.getItem(KEY);
  const l = LANGS.includes(saved as Lang) ? (saved as Lang) : fromBrowser(typeof navigator === "undefined" ? [] : navigator.languages ?? [navigator.language]);
  setLang(l, false);
}

export function onLang(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

type Names = Record<string, Record<string, [string, string, string]>>;
const PATTERNS = patterns as unknown as Names;

/** A pattern's Chinese name as the page shows it: in 繁體中文 and 简体中文 in that script; in
 * English the rules' own (`fallback`, the server's), with the English gloss below it
 * (`patternGloss`). `fallback` too for a pattern the generated names do not know. */
export function patternName(ruleset: string, id: string, fallback: string): string {
  const n = PATTERNS[ruleset]?.[id];
  if (!n || current === "en") return fallback;
  return current === "zh-Hant" ? n[1] : n[2];
}

/** A pattern's English gloss, shown under the Chinese name in English (null otherwise). */
export function patternGloss(ruleset: string, id: string, fallback: string): string | null {
  if (current !== "en") return null;
  return PATTERNS[ruleset]?.[id]?.[0] ?? fallback;
}

function pick(map: Record<string, string>, key: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(map, key) ? map[key] : undefined;
}

export function rulesetName(id: string): string {
  return pick(t.rulesets, id) ?? id;
}

export function unit(ruleset: string): string {
  return pick(t.units, ruleset) ?? "";
}

/** The hints' note in words: by its note_code, the server's (English) note when the code is
 * new or absent (an older server). */
export function hintNote(code: string | null | undefined, minimum: number, note: string): string {
  const notes: Record<string, (n: number) => string> = t.hintNotes;
  const word = code && Object.prototype.hasOwnProperty.call(notes, code) ? notes[code] : undefined;
  return word ? word(minimum) : note;
}

/** A server error in words: by its code, the server's (English) message when the code is new. */
export function errorText(code: string, message: string): string {
  return pick(t.errors, code) ?? message;
}
