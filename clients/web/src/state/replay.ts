// A finished game stepped through with every hand open (the replay viewer, ui/replay.tsx):
// pure. The log's `events` (one list per step, each event as its owner saw it) are fed to the
// client's own reducer (state/reducer.ts) four times, once as each seat: seat k's model
// knows seat k's tiles, so the table of a step takes each seat's hand from its own model and
// what everyone sees (rivers, scores, the result) from seat 0's.
import type { GameEvent, GameLogDoc, Lobby, Meld, Tile } from "../protocol/types";
import { applyEvents, fromSnapshot, splitDrawn, type HandResult, type RiverTile, type RoomModel } from "./reducer";

/** One seat at a step of the replay: every tile shown. */
export interface OpenSeat {
  seat: number;
  name: string;
  wind: string;
  score: number;
  concealed: Tile[];
  drawn: Tile | null;
  melds: Meld[];
  flowers: Tile[];
  river: RiverTile[];
  ting: boolean;
  turn: boolean;
}

/** The table at a step of the replay. */
export interface OpenTable {
  step: number;
  /** the hand in play (from 0), null before the first deal */
  hand: number | null;
  roundWind: string;
  dealer: number;
  wallLeft: number;
  seats: OpenSeat[];
  /** the hand's result once it has ended (until the next deal) */
  result: HandResult | null;
  /** what this step did */
  events: GameEvent[];
  ruleset: string;
}

/** Models are kept every CHECKPOINT steps; a step is rebuilt from the one before it. */
const CHECKPOINT = 32;

/** Why a log cannot be replayed in the browser. */
export class ReplayError extends Error {}

/** A log file or an archive answer as a game log: the `game_log` itself, or a `/log` answer
 * (whose `game_log` it is). */
export function asGameLog(x: unknown): GameLogDoc {
  const o = (x && typeof x === "object" ? x : {}) as Record<string, unknown>;
  const doc = (o.game_log && typeof o.game_log === "object" ? o.game_log : o) as Partial<GameLogDoc>;
  if (typeof doc.ruleset !== "string" || !Array.isArray(doc.seats) || !Array.isArray(doc.actions)) {
    throw new ReplayError("not a game log");
  }
  if (!Array.isArray(doc.events) || doc.events.length === 0) throw new ReplayError("no events");
  return doc as GameLogDoc;
}

export class Replay {
  readonly doc: GameLogDoc;
  readonly names: string[];
  /** the first step of each hand (a hand_started event), in order */
  readonly handStarts: number[];
  /** each hand's result as it ended (the win dialog's: breakdown, payments, net) */
  readonly results: HandResult[] = [];
  private readonly lobby: Lobby;
  private readonly marks: RoomModel[][] = [];

  constructor(doc: GameLogDoc) {
    this.doc = doc;
    this.names = [0, 1, 2, 3].map((i) => doc.seats[i] ?? `${i + 1}`);
    this.lobby = {
      id: "replay",
      code: "replay",
      ruleset: doc.ruleset,
      options: doc.options,
      host: "",
      status: "playing",
      game_no: doc.game_no,
      seats: this.names.map((name, i) => ({ player: `seat${i}`, name, bot: false, ready: true, away: false, auto: false })),
      spectators: [],
    };
    const steps = doc.events ?? [];
    this.handStarts = steps.flatMap((evs, i) => (evs.some((e) => e.type === "hand_started") ? [i] : []));
    let models = [0, 1, 2, 3].map((seat) =>
      fromSnapshot({ type: "snapshot", room: "replay", seq: 0, lobby: this.lobby, you: { player: `seat${seat}`, seat, spectator: false }, game: null }),
    );
    for (let i = 0; i < steps.length; i++) {
      models = this.apply(models, i);
      if (i % CHECKPOINT === 0) this.marks.push(models);
      const done = models[0]?.result;
      if (done && (steps[i] ?? []).some((e) => e.type === "hand_ended")) this.results.push(done);
    }
  }

  /** How many steps there are. */
  get length(): number {
    return this.doc.events?.length ?? 0;
  }

  private apply(models: RoomModel[], i: number): RoomModel[] {
    const events = this.doc.events?.[i] ?? [];
    return models.map((m) => applyEvents(m, { type: "events", room: "replay", seq: i + 1, events }));
  }

  /** The hand (from 0) a step belongs to: the last hand started at or before it. */
  handOf(step: number): number {
    let h = 0;
    this.handStarts.forEach((s, i) => {
      if (s <= step) h = i;
    });
    return h;
  }

  /** The step of hand `hand` (from 0), `step` steps after its deal (clamped). */
  stepOf(hand: number, step: number): number {
    const start = this.handStarts[Math.max(0, Math.min(hand, this.handStarts.length - 1))] ?? 0;
    return Math.max(0, Math.min(start + step, this.length - 1));
  }

  /** The table after step `i` (clamped to the steps there are). */
  at(i: number): OpenTable {
    const step = Math.max(0, Math.min(i, this.length - 1));
    const k = Math.floor(step / CHECKPOINT);
    let models = this.marks[k] ?? [];
    for (let j = k * CHECKPOINT + 1; j <= step; j++) models = this.apply(models, j);
    return this.table(models, step);
  }

  private table(models: RoomModel[], step: number): OpenTable {
    const pub = models[0]!;
    const g = pub.game;
    const h = g?.hand ?? null;
    const seats = [0, 1, 2, 3].map((k): OpenSeat => {
      const own = models[k]?.game?.hand?.seats[k];
      const seen = h?.seats[k];
      const { rest, drawn } = own ? splitDrawn(own) : { rest: [], drawn: null };
      return {
        seat: k,
        name: this.names[k] ?? "",
        wind: seen?.wind ?? "",
        score: g?.scores[k] ?? 0,
        concealed: rest,
        drawn,
        melds: own?.melds ?? [],
        flowers: seen?.flowers ?? [],
        river: pub.rivers[k] ?? [],
        ting: seen?.ting ?? false,
        turn: !!h && h.turn === k && g?.phase !== "between_hands" && g?.phase !== "game_over",
      };
    });
    return {
      step,
      hand: h ? this.handOf(step) : null,
      roundWind: g?.round_wind ?? "we",
      dealer: g?.dealer ?? 0,
      wallLeft: h?.wall_left ?? -1,
      seats,
      result: pub.result,
      events: this.doc.events?.[step] ?? [],
      ruleset: this.doc.ruleset,
    };
  }
}
