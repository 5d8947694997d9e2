// A payment of a win in words: the settlement's own arithmetic (`parts`, `share` on the wire,
// docs/protocol.md "Payment") as a line a player can check, e.g. "8 base + 22 fan = 30",
// "(2 base + 5 fan + 1 dealer) × 2 = 16", "⌈220 points ÷ 3⌉ = 74 (rounded up)".
import type { PaymentPart } from "../protocol/types";
import { t, unit } from "../i18n";

export type Part = PaymentPart;

type Kind = keyof typeof t.partKinds;

/** A part's label: the rule set's unit for `points`, else the catalogue's word. */
function label(ruleset: string, kind: string): string {
  if (kind === "points") return unit(ruleset);
  return kind in t.partKinds ? t.partKinds[kind as Kind] : kind;
}

/** The sum the parts make, as the settlement computed it: ⌈Σ value × times / share⌉. */
export function partsTotal(parts: Part[], share: number | null = 1): number {
  const sum = parts.reduce((a, p) => a + p.value * (p.times ?? 1), 0);
  return Math.ceil(sum / (share ?? 1));
}

/** The arithmetic of a payment, without the result ("8 base + 22 fan"). */
export function arithmetic(ruleset: string, parts: Part[], share: number | null = 1): string {
  const times = parts.map((p) => p.times ?? 1);
  const same = times.every((x) => x === times[0]);
  const term = (p: Part, withTimes: boolean) =>
    `${p.value} ${label(ruleset, p.kind)}`.trim() + (withTimes && (p.times ?? 1) !== 1 ? ` × ${p.times}` : "");
  let text: string;
  if (same && (times[0] ?? 1) !== 1) {
    const inner = parts.map((p) => term(p, false)).join(" + ");
    text = `${parts.length > 1 ? `(${inner})` : inner} × ${times[0]}`;
  } else {
    text = parts.map((p) => term(p, true)).join(" + ");
  }
  if (share != null && share !== 1) text = `⌈${parts.length > 1 || !same ? `(${text})` : text} ÷ ${share}⌉`;
  return text;
}

/** A payment's reason in words (tw16-tai's "self-drawn +dealer 1": the dealer is in the parts). */
export function reasonWords(reason: string): string {
  const key = reason.split(" +")[0] ?? reason;
  return Object.prototype.hasOwnProperty.call(t.payReasons, key) ? t.payReasons[key as keyof typeof t.payReasons] : key;
}
