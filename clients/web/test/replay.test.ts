// The replay viewer's model (src/state/replay.ts) against the engine: golden games' logs as
// `game_log` has them (tests/web_tests/make_web_fixtures.py). After every step each seat's
// open hand is the engine's view of that seat's concealed tiles, and the scores are the
// engine's; each hand that ended has its result; moments in the address round-trip.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { GameLogDoc } from "../src/protocol/types";
import { Replay, ReplayError, asGameLog } from "../src/state/replay";
import { keyMove, momentOf, momentQuery } from "../src/ui/replay";

interface Fixture {
  game: string;
  log: GameLogDoc;
  expect: { concealed: string[][]; scores: number[] }[];
}

const DIR = join(__dirname, "fixtures", "replay");
const fixtures: Fixture[] = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(DIR, f), "utf8")) as Fixture);

describe.each(fixtures.map((f) => [f.game, f] as const))("golden game %s", (_name, fx) => {
  const replay = new Replay(asGameLog(fx.log));

  it("every step shows each seat's own tiles and the scores as the engine does", () => {
    expect(replay.length).toBe(fx.expect.length);
    // in order, and again backwards (each step rebuilt from its checkpoint)
    const order = [...fx.expect.keys(), ...[...fx.expect.keys()].reverse()];
    for (const i of order) {
      const table = replay.at(i);
      const want = fx.expect[i]!;
      const open = table.seats.map((s) => [...s.concealed, ...(s.drawn ? [s.drawn] : [])].sort());
      expect({ step: i, open }).toEqual({ step: i, open: want.concealed.map((c) => [...c].sort()) });
      expect(table.seats.map((s) => s.score)).toEqual(want.scores);
    }
  });

  it("keeps each ended hand's result, with its payments adding up to the scores", () => {
    const ended = fx.log.events!.flat().filter((e) => e.type === "hand_ended").length;
    expect(replay.results.length).toBe(ended);
    const total = [0, 0, 0, 0];
    for (const r of replay.results) r.net.forEach((v, i) => (total[i] = (total[i] ?? 0) + v));
    expect(total).toEqual(fx.log.summary!.scores);
  });

  it("a moment's address opens the same step", () => {
    for (const step of [0, 1, Math.floor(replay.length / 2), replay.length - 1]) {
      expect(momentOf(momentQuery(replay, step), replay)).toBe(step);
    }
    expect(momentOf("?hand=99&step=99999", replay)).toBe(replay.length - 1);
    expect(momentOf("?hand=x", replay)).toBe(0);
  });
});

describe("a file that is not a game log this page can replay", () => {
  it.each([[null], [{}], [{ ruleset: "mcr", seats: [], actions: [] }], [{ game_log: { ruleset: "mcr", seats: [], actions: [], events: [] } }]])(
    "%j is refused",
    (x) => {
      expect(() => asGameLog(x)).toThrow(ReplayError);
    },
  );
  it("an archive's /log answer is read by its game_log", () => {
    const doc = fixtures[0]!.log;
    expect(asGameLog({ game_log: doc, log: [] })).toBe(doc);
  });
});

describe("the viewer's keys", () => {
  const replay = new Replay(asGameLog(fixtures[0]!.log));
  const from = (key: string, shift: boolean, step: number) => keyMove(replay, key, shift)?.(step);

  it("move a step or a hand from the step they are given", () => {
    expect(from("ArrowRight", false, 5)).toBe(6);
    expect(from("ArrowLeft", false, 5)).toBe(4);
    expect(from("PageDown", false, 0)).toBe(replay.stepOf(1, 0));
    expect(from("ArrowRight", true, 0)).toBe(replay.stepOf(1, 0));
    expect(from("PageUp", false, replay.stepOf(1, 3))).toBe(replay.stepOf(0, 0));
    expect(from("ArrowLeft", true, replay.stepOf(1, 3))).toBe(replay.stepOf(0, 0));
  });

  it("leave other keys to the page", () => {
    expect(keyMove(replay, "Enter", false)).toBeNull();
    expect(keyMove(replay, "a", true)).toBeNull();
  });
});
