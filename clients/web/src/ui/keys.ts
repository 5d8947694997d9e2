// The table's keys (docs/web.md "At the table"): what a key press means, decided from what is
// on offer. Pure, so the rules are tested without a browser (test/keys.test.ts).
//   ←/→       move the selection along the hand in screen order (the drawn tile last)
//   Enter, D  discard the selected tile        T  discard it with 叮
//   W         win (self-drawn, or on the discard)   K  kong (concealed, added, or claimed)
//   1–9       the claim prompt's options in order   Space  pass
// Enter and Space on a focused button (or link) are the button's own: never a discard.
import type { LegalAction, Tile } from "../protocol/types";

export interface KeyContext {
  /** the tag of the element the key went to (INPUT, BUTTON, …) */
  target: string;
  claiming: boolean;
  claimOptions: LegalAction[];
  pass: LegalAction | undefined;
  /** the tiles that may be discarded, in the order the hand shows them */
  order: Tile[];
  selected: Tile | null;
  discards: LegalAction[];
  tings: LegalAction[];
  /** kongs and a self-drawn win on your turn */
  turnOthers: LegalAction[];
}

export type KeyIntent = { act: LegalAction } | { select: Tile | null } | null;

const TYPING = new Set(["INPUT", "TEXTAREA", "SELECT"]);
const PRESSABLE = new Set(["BUTTON", "A", "SUMMARY"]);

export function keyIntent(key: string, c: KeyContext): KeyIntent {
  if (TYPING.has(c.target)) return null;
  if (PRESSABLE.has(c.target) && (key === "Enter" || key === " ")) return null;
  const k = key.length === 1 ? key.toLowerCase() : key;
  const pick = (list: LegalAction[], types: string[]) => list.find((a) => types.includes(a.type));
  if (c.claiming) {
    const n = Number(k);
    if (n >= 1 && n <= 9 && c.claimOptions[n - 1]) return { act: c.claimOptions[n - 1]! };
    if (k === " " && c.pass) return { act: c.pass };
    const a = k === "w" ? pick(c.claimOptions, ["win"]) : k === "k" ? pick(c.claimOptions, ["kong"]) : undefined;
    return a ? { act: a } : null;
  }
  if (k === "w" || k === "k") {
    const a = pick(c.turnOthers, k === "w" ? ["win"] : ["concealed_kong", "added_kong"]);
    return a ? { act: a } : null;
  }
  if ((k === "Enter" || k === "d") && c.selected) {
    const a = c.discards.find((d) => d.tile === c.selected);
    return a ? { act: a } : null;
  }
  if (k === "t" && c.selected) {
    const a = c.tings.find((d) => d.tile === c.selected);
    return a ? { act: a } : null;
  }
  if ((k === "ArrowLeft" || k === "ArrowRight") && c.order.length) {
    const i = c.selected ? c.order.lastIndexOf(c.selected) : -1;
    const n = c.order.length;
    const j = k === "ArrowLeft" ? (i <= 0 ? n - 1 : i - 1) : (i + 1) % n;
    return { select: c.order[j] ?? null };
  }
  return null;
}
