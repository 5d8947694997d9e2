import { describe, expect, it } from "vitest";
import { handRows, running } from "../src/ui/chart";

describe("the score chart's data", () => {
  const summary = {
    ruleset: "mcr",
    hands_played: 3,
    scores: [-30, 90, -30, -30],
    last_result: null,
    ledger: [
      { hand: 0, payer: 0, payee: 1, amount: 30, reason: "self-drawn" },
      { hand: 0, payer: 2, payee: 1, amount: 30, reason: "self-drawn" },
      { hand: 0, payer: 3, payee: 1, amount: 30, reason: "self-drawn" },
      // hand 1 was drawn: no payments, still a row
    ],
  };
  it("has a row per hand played, drawn hands included", () => {
    expect(handRows(summary)).toEqual([[-30, 90, -30, -30], [0, 0, 0, 0], [0, 0, 0, 0]]);
  });
  it("runs each seat's score from 0 to its final score", () => {
    const lines = running(handRows(summary));
    expect(lines[1]).toEqual([0, 90, 90, 90]);
    expect(lines.map((l) => l[l.length - 1])).toEqual(summary.scores);
  });
});
