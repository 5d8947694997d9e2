import { describe, expect, it } from "vitest";
import { setLang } from "../src/i18n";
import { arithmetic, partsTotal, reasonWords } from "../src/ui/payments";

describe("a payment's arithmetic", () => {
  setLang("en", false);
  it("adds the parts (MCR: 8 base + the points)", () => {
    const parts = [{ kind: "base", value: 8 }, { kind: "points", value: 22 }];
    expect(arithmetic("mcr", parts)).toBe("8 base + 22 fan");
    expect(partsTotal(parts)).toBe(30);
  });
  it("factors out a common multiplier (hk-tw16 per_fan)", () => {
    const parts = [{ kind: "base", value: 2, times: 2 }, { kind: "points", value: 5, times: 2 }, { kind: "dealer", value: 1, times: 2 }];
    expect(arithmetic("hk-tw16", parts)).toBe("(2 base + 5 fan + 1 dealer) × 2");
    expect(partsTotal(parts)).toBe(16);
  });
  it("multiplies only the parts that are (tw16-tai: base + tai × unit)", () => {
    const parts = [{ kind: "base", value: 50 }, { kind: "points", value: 3, times: 20 }, { kind: "dealer", value: 1, times: 20 }, { kind: "streak", value: 2, times: 20 }];
    expect(arithmetic("tw16-tai", parts)).toBe("50 base + 3 tai × 20 + 1 dealer × 20 + 2 dealer's streak × 20");
    expect(partsTotal(parts)).toBe(170);
  });
  it("splits a share, rounded up (Zung Jung's third)", () => {
    const parts = [{ kind: "points", value: 220 }];
    expect(arithmetic("zung-jung", parts, 3)).toBe("⌈220 points ÷ 3⌉");
    expect(partsTotal(parts, 3)).toBe(74);
  });
  it("names the reasons in the page's language, tw16-tai's dealer suffix aside", () => {
    expect(reasonWords("self-drawn +dealer 3")).toBe("self-draw");
    setLang("zh-Hant", false);
    expect(reasonWords("one-flower-set")).toBe("一台花");
    expect(arithmetic("mcr", [{ kind: "base", value: 8 }])).toBe("8 底");
    setLang("en", false);
    expect(reasonWords("something-new")).toBe("something-new");
  });
});
