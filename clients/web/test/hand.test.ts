// How the hand shows a seat's concealed tiles: the drawn tile apart, never a tile lost.
import { describe, expect, it } from "vitest";
import { splitDrawn } from "../src/state/reducer";

describe("splitDrawn", () => {
  it("puts the drawn tile apart from the rest", () => {
    expect(splitDrawn({ concealed: ["1m", "9p", "5s", "9p"], drawn: "9p" })).toEqual({ rest: ["1m", "5s", "9p"], drawn: "9p" });
  });
  it("keeps every tile when there is no drawn tile", () => {
    expect(splitDrawn({ concealed: ["1m", "5s"], drawn: null })).toEqual({ rest: ["1m", "5s"], drawn: null });
  });
  it("drops no tile for a drawn tile that is not in the hand", () => {
    // (before: splice(indexOf(drawn) = -1, 1) took the last tile out)
    expect(splitDrawn({ concealed: ["1m", "5s", "wn"], drawn: "9p" })).toEqual({ rest: ["1m", "5s", "wn"], drawn: null });
  });
  it("shows nothing for a hand it cannot see", () => {
    expect(splitDrawn({ concealed: null, drawn: null })).toEqual({ rest: [], drawn: null });
  });
});
