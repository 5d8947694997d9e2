// From server frames to what the screen shows: a pure reducer per room. A `snapshot`
// replaces everything; each `events` frame is applied in order (a gap marks the room for a
// `resync`); game events update the table as the engine's view would show it
// (tests: test/reducer.test.ts, driven by per-seat streams of the engine's golden games).

import type {
  ChatLine,
  Clock,
  EventsMessage,
  GameEvent,
  GameSummary,
  GameView,
  LegalAction,
  Lobby,
  Meld,
  Notice,
  Payment,
  SeatView,
  SnapshotMessage,
  Tile,
  Winner,
  You,
} from "../protocol/types";
import { sortTiles } from "../tiles/order";

export interface RiverTile {
  tile: Tile;
  /** taken by a claim (the engine's view no longer lists it; shown greyed) */
  claimed: boolean;
  /** discarded with 叮 */
  ting?: boolean;
}

export interface HandResult {
  kind: "win" | "draw";
  hand: number;
  how?: string;
  tile?: Tile;
  discarder?: number | null;
  winners: Winner[];
  reason?: string;
  /** each seat's net from this hand's payments */
  net: number[];
  /** every payment of the hand (the win's, and instant payments: hk-tw16), in order */
  payments: Payment[];
  /** every seat's concealed tiles, revealed at the end */
  revealed: Tile[][] | null;
}

/** Something that happened, for the table's log line (ui/table.tsx puts it in words): `who`
 * is a name, or a seat number when the seat has no player. */
export interface LogEntry {
  key: "joined" | "left" | "away" | "back" | "botPlays" | "closed" | "youRemoved" | "removed" | "youHost" | "host" | "paused" | "resumed" | "outOfTime" | "timedOut" | "chow" | "pung" | "kong";
  who: string | number;
  tile?: string;
}

export interface RoomModel {
  room: string;
  seq: number;
  lobby: Lobby;
  you: You;
  /** the engine's view for your seat, kept up to date by the events; `hand.wall_left` is
   * -1 until the first draw of a hand started while you watched (the deal does not say) */
  game: GameView | null;
  rivers: RiverTile[][];
  legal: LegalAction[];
  deadline: number | null;
  lastDiscard: { seat: number; tile: Tile } | null;
  result: HandResult | null;
  summary: GameSummary | null;
  chat: ChatLine[];
  /** recent happenings, newest last (notices, claims, timeouts), put in words by the page */
  log: LogEntry[];
  /** a frame is missing: the client must send `resync {since: seq}` */
  gap: boolean;
  /** each seat's net from the payments of the hand in play (kongs, flowers, the win) */
  handNet: number[];
  /** the payments of the hand in play, in order */
  handPayments: Payment[];
  /** the table's public countdowns (the seat in turn, away seats' grace): `clocks` */
  clocks: Clock[];
  /** how many discards, melds and wins the frames showed (the sounds play each new one) */
  cues: { discard: number; meld: number; win: number };
}

const MAX_CHAT = 100;
const WINDS = ["we", "ws", "ww", "wn"] as const;
const MAX_LOG = 30;

/** The name of a seat's player (null: nobody sits there). */
export function seatName(lobby: Lobby, seat: number): string | null {
  const s = lobby.seats[seat];
  return s ? s.name : null;
}

/** A seat's player for the log: the name, or the seat number. */
function who(lobby: Lobby, seat: number): string | number {
  return seatName(lobby, seat) ?? seat;
}

/** A seat's concealed tiles as the hand shows them: the rest, and the drawn tile apart. The
 * drawn tile is apart only when it is one of the concealed tiles (else nothing is taken out:
 * a tile is never dropped from the hand for a drawn tile that is not in it). */
/** The room seq up to which an ack of the player's action answers their prompt: the
 * commit's seq, or, for an answer the server holds (`ack.held`: no commit, `seq` is the
 * room's), that seq + 1 — the window's close is the next question. */
export function answeredThrough(ack: { seq: number; held?: boolean }): number {
  return ack.held ? ack.seq + 1 : ack.seq;
}

/** The legal actions to offer for a room at `seq`, given the seq the player's last acked
 * action answered through: none while that is past the frame (the prompt was answered). */
export function offered<T>(legal: T[], seq: number, answered: number | undefined): T[] {
  return (answered ?? 0) > seq ? [] : legal;
}

export function splitDrawn(seat: Pick<SeatView, "concealed" | "drawn">): { rest: Tile[]; drawn: Tile | null } {
  const rest = [...(seat.concealed ?? [])];
  const drawn = seat.drawn ?? null;
  const at = drawn === null ? -1 : rest.indexOf(drawn);
  if (at < 0) return { rest, drawn: null };
  rest.splice(at, 1);
  return { rest, drawn };
}

function clone<T>(x: T): T {
  return JSON.parse(JSON.stringify(x)) as T;
}

function removeTiles(list: Tile[], tiles: Tile[]): Tile[] {
  const out = [...list];
  for (const t of tiles) {
    const i = out.indexOf(t);
    if (i >= 0) out.splice(i, 1);
  }
  return out;
}

export function fromSnapshot(f: SnapshotMessage, keepChat: ChatLine[] = []): RoomModel {
  const game = f.game ? clone(f.game) : null;
  const rivers: RiverTile[][] = [0, 1, 2, 3].map((i) =>
    (game?.hand?.seats[i]?.discards ?? []).map((tile) => ({ tile, claimed: false })),
  );
  const h = game?.hand;
  return {
    room: f.room,
    seq: f.seq,
    lobby: f.lobby,
    you: f.you,
    game,
    rivers,
    legal: f.legal ?? [],
    deadline: f.deadline ?? null,
    lastDiscard:
      h && h.discard != null && h.discarder != null ? { seat: h.discarder, tile: h.discard } : null,
    result: null,
    summary: null,
    chat: keepChat,
    log: [],
    gap: false,
    handNet: [0, 0, 0, 0],
    handPayments: [],
    clocks: f.clocks ?? [],
    cues: { discard: 0, meld: 0, win: 0 },
  };
}

/** Apply one `events` frame. Frames at or below the room's seq are ignored (duplicates); a
 * frame that does not follow on (`prev`, or seq - 1) sets `gap` and changes nothing else. */
export function applyEvents(m: RoomModel, f: EventsMessage): RoomModel {
  if (f.seq <= m.seq) return m;
  const prev = f.prev ?? f.seq - 1;
  if (prev !== m.seq) return { ...m, gap: true };
  const r: RoomModel = {
    ...m,
    seq: f.seq,
    gap: false,
    game: m.game ? clone(m.game) : null,
    rivers: m.rivers.map((row) => row.map((t) => ({ ...t }))),
    chat: m.chat,
    log: [...m.log],
  };
  // every frame of a running game carries the clocks (absent: the game is not running)
  r.clocks = f.clocks ?? (f.legal !== undefined ? [] : m.clocks);
  if (f.lobby && f.lobby.status !== "playing") r.clocks = [];
  if (f.lobby) {
    r.lobby = f.lobby;
    const me = f.lobby.seats.findIndex((s) => s?.player === m.you.player);
    r.you = { ...r.you, seat: me >= 0 ? me : null, spectator: me < 0 };
    if (f.lobby.status === "lobby") {
      r.summary = null;
      if (m.lobby.status !== "lobby") {
        r.game = null; // a rematch: back to the lobby
        r.result = null;
      }
    }
  }
  if (f.chat) r.chat = [...m.chat, f.chat].slice(-MAX_CHAT);
  if (f.notice) applyNotice(r, f.notice);
  for (const e of f.events) applyEvent(r, e);
  // what happened, counted for the optional sounds (ui/signals.tsx plays each new one)
  const cues = { ...m.cues };
  for (const e of f.events) {
    if (e.type === "discard") cues.discard += 1;
    else if (e.type === "claimed" || e.type === "kong") cues.meld += 1;
    else if (e.type === "hand_won") cues.win += 1;
  }
  r.cues = cues;
  r.legal = f.legal ?? [];
  r.deadline = f.deadline ?? null;
  r.log = r.log.slice(-MAX_LOG);
  return r;
}

function applyNotice(r: RoomModel, n: Notice): void {
  switch (n.type) {
    case "joined":
      r.log.push({ key: "joined", who: n.name });
      break;
    case "left":
      r.log.push({ key: "left", who: n.name });
      break;
    case "seat_away":
      r.log.push({ key: "away", who: who(r.lobby, n.seat) });
      break;
    case "seat_back":
      r.log.push({ key: "back", who: who(r.lobby, n.seat) });
      break;
    case "bot_took_over":
      r.log.push({ key: "botPlays", who: who(r.lobby, n.seat) });
      break;
    case "room_closed":
      r.log.push({ key: "closed", who: "" });
      break;
    case "kicked":
      r.log.push(n.player === r.you.player ? { key: "youRemoved", who: "" } : { key: "removed", who: n.name });
      break;
    case "host_changed":
      r.log.push(n.player === r.you.player ? { key: "youHost", who: "" } : { key: "host", who: n.name });
      break;
    case "paused":
      r.log.push({ key: "paused", who: n.name });
      break;
    case "resumed":
      r.log.push({ key: "resumed", who: n.name });
      break;
    case "game_over":
      r.summary = n.summary;
      break;
    default:
      break;
  }
}

function newGame(r: RoomModel): GameView {
  return {
    seq: 0,
    ruleset: r.lobby.ruleset,
    phase: "turn",
    you: r.you.seat,
    dealer: 0,
    round_wind: "we",
    hands_played: 0,
    streak: 0,
    scores: [0, 0, 0, 0],
    hand: null,
    legal_actions: [],
  };
}

function seatOf(r: RoomModel, i: number): SeatView | undefined {
  return r.game?.hand?.seats[i];
}

function mine(r: RoomModel, s: SeatView): boolean {
  return s.concealed !== null && r.you.seat === s.seat;
}

/** Apply one game event (as the engine's view for this seat would change). Exported for tests. */
export function applyEvent(r: RoomModel, e: GameEvent): void {
  if (e.type === "hand_started") {
    const g = r.game ?? newGame(r);
    g.phase = "turn";
    g.dealer = e.dealer;
    g.round_wind = e.round_wind;
    g.streak = e.streak;
    g.you = r.you.seat;
    g.hand = {
      number: e.hand,
      commitment: e.commitment,
      dice: e.dice,
      wall_left: -1,
      turn: e.dealer,
      discarder: null,
      discard: null,
      pending: [],
      seats: e.seat_winds.map((wind, i) => ({
        seat: i,
        wind,
        melds: [],
        flowers: [],
        discards: [],
        concealed_count: 0,
        ting: false,
        ting_tile: null,
        concealed: r.you.seat === i ? [] : null,
        ...(r.you.seat === i ? { drawn: null } : {}),
      })),
    };
    r.game = g;
    r.rivers = [[], [], [], []];
    r.lastDiscard = null;
    r.result = null;
    r.handNet = [0, 0, 0, 0];
    r.handPayments = [];
    return;
  }
  const g = r.game;
  const h = g?.hand;
  if (!g) return;
  switch (e.type) {
    case "dealt": {
      const s = seatOf(r, e.seat);
      if (!s) return;
      s.concealed_count = e.count;
      if (e.tiles && s.concealed !== null) {
        s.concealed = sortTiles(e.tiles);
        // the dealer's 14th tile counts as drawn (the engine's view says so)
        if (e.count % 3 === 2) s.drawn = e.tiles[e.tiles.length - 1] ?? null;
      }
      return;
    }
    case "draw": {
      const s = seatOf(r, e.seat);
      if (!s || !h) return;
      s.concealed_count += 1;
      if (e.wall_left !== undefined) h.wall_left = e.wall_left; // not said during the deal
      if (!e.replacement) {
        // (a replacement for a flower or a kong is drawn by the seat whose turn it is, or
        // during the deal, when the dealer's turn comes next)
        h.turn = e.seat;
        h.discard = null;
        h.discarder = null;
        g.phase = "turn";
      }
      if (e.tile && s.concealed !== null) {
        s.concealed = sortTiles([...s.concealed, e.tile]);
        // a flower's replacement in the deal is not "drawn" unless the turn is yours
        if (h.turn === e.seat) s.drawn = e.tile;
      }
      return;
    }
    case "flower": {
      const s = seatOf(r, e.seat);
      if (!s) return;
      s.flowers = [...s.flowers, e.tile];
      s.concealed_count -= 1;
      if (mine(r, s) && s.concealed) {
        s.concealed = removeTiles(s.concealed, [e.tile]);
        if (s.drawn === e.tile) s.drawn = null;
      }
      return;
    }
    case "ting": {
      // follows the discard it was declared with
      const s = seatOf(r, e.seat);
      if (!s) return;
      s.ting = true;
      s.ting_tile = e.tile;
      const river = r.rivers[e.seat];
      const last = river?.[river.length - 1];
      if (last) last.ting = true;
      return;
    }
    case "discard": {
      const s = seatOf(r, e.seat);
      if (!s || !h) return;
      s.concealed_count -= 1;
      s.discards = [...s.discards, e.tile];
      if (mine(r, s) && s.concealed) {
        s.concealed = removeTiles(s.concealed, [e.tile]);
        s.drawn = null;
      }
      r.rivers[e.seat]?.push({ tile: e.tile, claimed: false });
      r.lastDiscard = { seat: e.seat, tile: e.tile };
      h.discarder = e.seat;
      h.discard = e.tile;
      g.phase = "claim";
      if (e.auto) r.log.push({ key: "outOfTime", who: who(r.lobby, e.seat) });
      return;
    }
    case "claimed": {
      const s = seatOf(r, e.seat);
      const from = seatOf(r, e.from);
      if (!s || !h || !from) return;
      const tiles = e.meld.tiles ?? [];
      s.melds = [...s.melds, e.meld];
      s.concealed_count -= Math.max(0, tiles.length - 1);
      if (mine(r, s) && s.concealed) {
        s.concealed = removeTiles(s.concealed, removeTiles(tiles, [e.meld.claimed ?? ""]));
        s.drawn = null;
      }
      from.discards = from.discards.slice(0, -1);
      const river = r.rivers[e.from];
      const last = river?.[river.length - 1];
      if (last) last.claimed = true;
      h.turn = e.seat;
      h.discard = null;
      h.discarder = null;
      g.phase = "turn";
      r.log.push({ key: e.claim, who: who(r.lobby, e.seat), tile: e.meld.claimed ?? "" });
      return;
    }
    case "kong_declared": {
      if (!h) return;
      h.discarder = e.seat;
      h.discard = e.tile;
      g.phase = "rob";
      return;
    }
    case "kong": {
      const s = seatOf(r, e.seat);
      if (!s || !h) return;
      if (e.concealed) {
        const tiles = e.tile ? [e.tile, e.tile, e.tile, e.tile] : null;
        s.melds = [...s.melds, tiles ? { kind: "kong", tiles, concealed: true } : { kind: "kong", concealed: true, tiles: null }];
        s.concealed_count -= 4;
        if (mine(r, s) && s.concealed && e.tile) s.concealed = removeTiles(s.concealed, tiles ?? []);
      } else if (e.tile) {
        const t = e.tile;
        s.melds = s.melds.map((m): Meld =>
          m.kind === "pung" && !m.concealed && m.tiles?.[0] === t ? { ...m, kind: "kong", tiles: [t, t, t, t], added: true } : m,
        );
        s.concealed_count -= 1;
        if (mine(r, s) && s.concealed) s.concealed = removeTiles(s.concealed, [t]);
      }
      if (mine(r, s)) s.drawn = null;
      h.discard = null;
      h.discarder = null;
      g.phase = "turn";
      return;
    }
    case "payment": {
      g.scores = g.scores.map((v, i) => v + (i === e.payee ? e.amount : 0) - (i === e.payer ? e.amount : 0));
      r.handNet = r.handNet.map((v, i) => v + (i === e.payee ? e.amount : 0) - (i === e.payer ? e.amount : 0));
      r.handPayments = [...r.handPayments, { hand: e.hand, payer: e.payer, payee: e.payee, amount: e.amount, reason: e.reason }];
      if (r.result) {
        r.result.net = [...r.handNet];
        r.result.payments = r.handPayments;
      }
      return;
    }
    case "hand_won": {
      // the payments of the win follow as `payment` events; earlier ones this hand (kongs,
      // flowers) are counted too, so `net` is the whole hand
      r.result = { kind: "win", hand: e.hand, how: e.how, tile: e.tile, discarder: e.discarder, winners: e.winners, net: [...r.handNet], payments: r.handPayments, revealed: null };
      // the won tile joins the (head) winner's hand: it leaves the discarder's river (shown
      // greyed, as a claimed one) or the hand of the seat whose added kong was robbed
      const from = e.discarder === null ? undefined : seatOf(r, e.discarder);
      const head = e.winners[0] ? seatOf(r, e.winners[0].seat) : undefined;
      if (from && head && (e.how === "discard" || e.how === "robbing_kong")) {
        if (e.how === "discard") {
          from.discards = from.discards.slice(0, -1);
          const river = r.rivers[from.seat];
          const last = river?.[river.length - 1];
          if (last) last.claimed = true;
        } else {
          from.concealed_count -= 1;
          if (mine(r, from) && from.concealed) from.concealed = removeTiles(from.concealed, [e.tile]);
        }
        head.concealed_count += 1;
      }
      return;
    }
    case "hand_drawn": {
      r.result = { kind: "draw", hand: e.hand, reason: e.reason, winners: [], net: [...r.handNet], payments: r.handPayments, revealed: null };
      return;
    }
    case "hand_ended": {
      if (h) {
        h.seats.forEach((s, i) => {
          const tiles = e.hands[i];
          if (tiles) {
            s.concealed = sortTiles(tiles);
            s.concealed_count = tiles.length;
          }
          if (s.drawn !== undefined) s.drawn = null;
          // another seat's concealed kongs are shown now, in meld order
          const kongs = [...(e.concealed_kongs?.[i] ?? [])];
          s.melds = s.melds.map((m): Meld => {
            const t = m.kind === "kong" && m.concealed && m.tiles === null ? kongs.shift() : undefined;
            return t ? { ...m, tiles: [t, t, t, t] } : m;
          });
        });
        h.wall = e.wall;
        h.salt = e.salt;
        h.discard = null;
        h.discarder = null;
      }
      g.phase = "between_hands";
      g.hands_played += 1;
      if (r.result) r.result.revealed = e.hands.map((t) => sortTiles(t));
      return;
    }
    case "next_hand": {
      g.dealer = e.dealer;
      h?.seats.forEach((s, i) => {
        // seat winds follow the dealer (said by seat_winds; computed for an older server)
        s.wind = e.seat_winds?.[i] ?? WINDS[(i - e.dealer + 4) % 4] ?? "we";
      });
      g.round_wind = e.round_wind;
      g.streak = e.streak;
      return;
    }
    case "game_over": {
      g.phase = "game_over";
      return;
    }
    case "timeout":
      if (e.default !== "pass") r.log.push({ key: "timedOut", who: who(r.lobby, e.seat) });
      return;
    default:
      return;
  }
}

/** The fields of the table a test compares with the engine's view (see make_web_fixtures.py). */
export function screen(r: RoomModel): unknown {
  const g = r.game;
  if (!g) return null;
  const h = g.hand;
  const over = g.phase === "between_hands" || g.phase === "game_over"; // hands revealed
  return {
    phase: g.phase,
    dealer: g.dealer,
    round_wind: g.round_wind,
    scores: g.scores,
    hand: h
      ? {
          number: h.number,
          turn: h.turn,
          wall_left: h.wall_left,
          seats: h.seats.map((s, i) => ({
            wind: s.wind,
            melds: s.melds,
            flowers: s.flowers,
            discards: (r.rivers[i] ?? []).filter((t) => !t.claimed).map((t) => t.tile),
            concealed_count: s.concealed_count,
            ting: s.ting,
            concealed: s.concealed,
            drawn: over ? null : (s.drawn ?? null),
          })),
        }
      : null,
  };
}
