// The page's reading of the server's clock (src/net/clock.ts): the ping's offset, and the
// seconds a countdown shows.
import { describe, expect, it } from "vitest";
import { clockOffset, secondsLeft } from "../src/net/clock";

describe("clockOffset", () => {
  it.each([
    // sent, received, server: offset
    [1000, 1004, 1002, 0], // the same clock
    [1000, 1004, 1001, 0], // within half the round trip: noise
    [1000, 1004, 1004, 0],
    [1000, 1004, 1005, 3], // beyond it: the server is ahead
    [1000, 1010, 4005, 3000],
    [1000, 1010, -995, -2000], // behind
  ])("sent %i, back %i, server %i: %i", (sent, back, server, want) => {
    expect(clockOffset(sent, back, server)).toBe(want);
  });
});

describe("secondsLeft", () => {
  it.each([
    // deadline, now, offset: seconds shown
    [10_000, 5_000, 0, 5], // a 5 s turn just set: 5, never 6
    [10_000, 5_001, 0, 5],
    [10_000, 4_999, 0, 6], // read before the deadline was set: what a stale clock showed
    [10_000, 9_001, 0, 1],
    [10_000, 10_000, 0, 0],
    [10_000, 12_000, 0, 0], // past: 0, not negative
    [10_000, 3_000, 2_000, 5], // the server is 2 s ahead of the device
  ])("deadline %i at %i (offset %i): %i s", (at, now, offset, want) => {
    expect(secondsLeft(at, now, offset)).toBe(want);
  });
});
