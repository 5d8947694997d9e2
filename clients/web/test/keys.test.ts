// The table's keys (src/ui/keys.ts): Enter on a focused button is the button's; W, K, T, D
// act; ←/→ follow the hand as shown (the drawn tile last).
import { describe, expect, it } from "vitest";
import type { LegalAction } from "../src/protocol/types";
import { keyIntent, type KeyContext } from "../src/ui/keys";
import { num, signed } from "../src/ui/format";

const d = (tile: string): LegalAction => ({ type: "discard", seq: 5, tile }) as LegalAction;
const win = { type: "win", seq: 5 } as LegalAction;
const kong = { type: "concealed_kong", seq: 5, tile: "3m" } as LegalAction;
const base: KeyContext = {
  target: "BODY",
  claiming: false,
  claimOptions: [],
  pass: undefined,
  order: ["7p", "9m", "2s"],
  selected: "9m",
  discards: [d("7p"), d("9m"), d("2s")],
  tings: [],
  turnOthers: [win, kong],
};

describe("keyIntent", () => {
  it("leaves Enter and Space on a focused button to the button", () => {
    expect(keyIntent("Enter", { ...base, target: "BUTTON" })).toBeNull();
    expect(keyIntent(" ", { ...base, target: "A" })).toBeNull();
    expect(keyIntent("Enter", { ...base, target: "INPUT" })).toBeNull();
  });
  it("discards the selected tile with Enter or D elsewhere", () => {
    expect(keyIntent("Enter", base)).toEqual({ act: d("9m") });
    expect(keyIntent("d", base)).toEqual({ act: d("9m") });
  });
  it("wins with W and kongs with K on your turn", () => {
    expect(keyIntent("w", base)).toEqual({ act: win });
    expect(keyIntent("K", base)).toEqual({ act: kong });
  });
  it("moves along the hand in screen order, wrapping", () => {
    expect(keyIntent("ArrowRight", base)).toEqual({ select: "2s" });
    expect(keyIntent("ArrowRight", { ...base, selected: "2s" })).toEqual({ select: "7p" });
    expect(keyIntent("ArrowLeft", { ...base, selected: "7p" })).toEqual({ select: "2s" });
  });
  it("in a claim prompt: digits, Space, W and K", () => {
    const pung = { type: "pung", seq: 6 } as LegalAction;
    const claimWin = { type: "win", seq: 6 } as LegalAction;
    const pass = { type: "pass", seq: 6 } as LegalAction;
    const c = { ...base, claiming: true, claimOptions: [claimWin, pung], pass };
    expect(keyIntent("2", c)).toEqual({ act: pung });
    expect(keyIntent(" ", c)).toEqual({ act: pass });
    expect(keyIntent("w", c)).toEqual({ act: claimWin });
    expect(keyIntent("k", c)).toBeNull();
  });
});

describe("numbers", () => {
  it("use the minus sign", () => {
    expect(num(-15)).toBe("−15");
    expect(signed(-15)).toBe("−15");
    expect(signed(8)).toBe("+8");
    expect(signed(0, "·")).toBe("·");
  });
});
