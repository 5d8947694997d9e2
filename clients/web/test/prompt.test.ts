// When the player's prompt is answered: after an ack of their action, the legal actions of
// older frames are not offered again; a held answer (ack.held: no commit) answers the frame
// it was given in, and the window's close (seq + 1) brings the next question.
import { describe, expect, it } from "vitest";
import { answeredThrough, offered } from "../src/state/reducer";

const legal = [{ type: "pass" }, { type: "pung" }];

describe("answeredThrough", () => {
  it("is the commit's seq for an ordinary ack", () => {
    expect(answeredThrough({ seq: 12 })).toBe(12);
    expect(answeredThrough({ seq: 12, held: false })).toBe(12);
  });
  it("is one past the room's seq for a held answer", () => {
    expect(answeredThrough({ seq: 12, held: true })).toBe(13);
  });
});

describe("offered", () => {
  it("offers the frame's legal actions when nothing was answered", () => {
    expect(offered(legal, 12, undefined)).toEqual(legal);
  });
  it("offers nothing in the frame a held answer was given in", () => {
    expect(offered(legal, 12, answeredThrough({ seq: 12, held: true }))).toEqual([]);
  });
  it("offers the next question once the window's close arrives", () => {
    expect(offered(legal, 13, answeredThrough({ seq: 12, held: true }))).toEqual(legal);
  });
  it("offers nothing from frames older than an ordinary ack, and the acked frame's own", () => {
    expect(offered(legal, 11, answeredThrough({ seq: 12 }))).toEqual([]);
    expect(offered(legal, 12, answeredThrough({ seq: 12 }))).toEqual(legal);
  });
});
