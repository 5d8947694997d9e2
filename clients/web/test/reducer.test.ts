// The reducer against the engine: per-seat frame streams of the table engine's golden games,
// made by tests/web_tests/make_web_fixtures.py through the server's view functions. After
// every frame the table the reducer holds must be what the engine's view of that seat shows.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { EventsMessage, ServerMessage, SnapshotMessage } from "../src/protocol/types";
import { applyEvents, fromSnapshot, screen, type RoomModel } from "../src/state/reducer";

interface Fixture {
  game: string;
  ruleset: string;
  views: { seat: number | null; frames: { frame: ServerMessage; expect: unknown }[] }[];
}

const DIR = join(__dirname, "fixtures");
const fixtures: Fixture[] = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(DIR, f), "utf8")) as Fixture);

/** The screen, with a wall count the client cannot know yet (-1, before the first draw of a
 * hand it saw dealt) taken as right. */
function shown(m: RoomModel, want: unknown): unknown {
  const got = screen(m) as { hand: { wall_left: number } | null } | null;
  const w = want as { hand: { wall_left: number } | null } | null;
  if (got?.hand && w?.hand && got.hand.wall_left === -1) got.hand.wall_left = w.hand.wall_left;
  return got;
}

describe.each(fixtures.map((f) => [f.game, f] as const))("golden game %s", (_name, fx) => {
  it.each(fx.views.map((v) => [v.seat === null ? "spectator" : `seat ${v.seat}`, v] as const))(
    "%s: every frame leaves the table as the engine shows it",
    (_who, view) => {
      let m: RoomModel | null = null;
      let want: unknown = null;
      let checked = 0;
      view.frames.forEach(({ frame, expect: e }, i) => {
        if (frame.type === "snapshot") m = fromSnapshot(frame as SnapshotMessage);
        else if (m) m = applyEvents(m, frame as EventsMessage);
        if (e !== null) want = e;
        expect(m, `frame ${i}`).not.toBeNull();
        expect(shown(m!, want), `${fx.game} ${_who} frame ${i} (seq ${frame.type === "events" ? frame.seq : "snapshot"})`).toEqual(want);
        expect(m!.legal).toEqual((frame as { legal?: unknown[] }).legal ?? []);
        checked += 1;
      });
      expect(checked).toBeGreaterThan(5);
    },
  );
});

describe("frame order", () => {
  const fx = fixtures[0]!;
  const frames = fx.views[0]!.frames.map((f) => f.frame);
  const start = fromSnapshot(frames[0] as SnapshotMessage);

  it("ignores a frame it already has and marks a gap without applying it", () => {
    const one = applyEvents(start, frames[1] as EventsMessage);
    expect(applyEvents(one, frames[1] as EventsMessage)).toBe(one);
    const skipped = applyEvents(one, frames[3] as EventsMessage);
    expect(skipped.gap).toBe(true);
    expect(skipped.seq).toBe(one.seq);
    expect(screen(skipped)).toEqual(screen(one));
  });

  it("follows `prev` under sparse delivery", () => {
    const f = { ...(frames[2] as EventsMessage), prev: start.seq };
    const m = applyEvents(start, f);
    expect(m.gap).toBe(false);
    expect(m.seq).toBe(f.seq);
  });
});
