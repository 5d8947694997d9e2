// The wire protocol (docs/protocol.md, version 1) as TypeScript types: the only module that
// spells out message shapes. Written by hand from docs/protocol.md and protocol/messages.py
// until protocol/schema.json exists; then this file is to be generated from the schema
// (the rest of the client imports only from here).

export const PROTOCOL_VERSION = 1;

export type Tile = string; // "1m".."9m", "1p".."9p", "1s".."9s", "we" "ws" "ww" "wn", "dr" "dg" "dw", "f1".."f8"
export type Wind = "we" | "ws" | "ww" | "wn";

// ------------------------------------------------------------------ client -> server

export interface RoomOptions {
  length?: "one_round" | "two_rounds" | "four_rounds" | "hands";
  hands?: number;
  turn_seconds?: number;
  claim_seconds?: number;
  stakes?: number;
  public?: boolean;
  hand_pause_ms?: number;
  bot_delay_ms?: number | null;
  house_rules?: Record<string, unknown> | null;
  settlement?: Record<string, unknown> | null;
}

/** A legal action as the server lists it (sent back unchanged, minus `seat`). */
export interface LegalAction {
  type:
    | "discard"
    | "ting"
    | "chow"
    | "pung"
    | "kong"
    | "concealed_kong"
    | "added_kong"
    | "win"
    | "pass"
    | "timeout";
  seat?: number;
  seq: number;
  tile?: Tile;
}

export type ClientMessage =
  | { type: "hello"; v: number; name?: string; token?: string; client?: string; sparse?: boolean; id?: number }
  | { type: "ping"; t?: number; id?: number }
  | { type: "list_rooms"; id?: number }
  | { type: "create_room"; ruleset: string; options?: RoomOptions; id?: number }
  | { type: "join_room"; code: string; id?: number }
  | { type: "leave_room"; room: string; id?: number }
  | { type: "sit"; room: string; seat: number; id?: number }
  | { type: "stand"; room: string; id?: number }
  | { type: "ready"; room: string; ready: boolean; id?: number }
  | { type: "add_bot"; room: string; seat: number; id?: number }
  | { type: "remove_bot"; room: string; seat: number; id?: number }
  | { type: "start_game"; room: string; id?: number }
  | { type: "action"; room: string; seq: number; action: LegalAction; id?: number }
  | { type: "chat"; room: string; text: string; id?: number }
  | { type: "rematch"; room: string; id?: number }
  | { type: "resync"; room: string; since: number; id?: number }
  | { type: "get_log"; room: string; id?: number };

// ------------------------------------------------------------------ server -> client

export interface LobbySeat {
  player: string | null;
  name: string;
  bot: boolean;
  ready: boolean;
  away?: boolean;
  auto?: boolean;
}

export interface Lobby {
  id: string;
  code: string;
  ruleset: string;
  options: RoomOptions & Record<string, unknown>;
  host: string;
  status: "lobby" | "playing" | "finished" | "closed";
  game_no: number;
  seats: (LobbySeat | null)[];
  spectators: { player: string; name: string }[];
}

export interface Meld {
  kind: "chow" | "pung" | "kong" | string;
  tiles: Tile[] | null; // null: another seat's concealed kong
  concealed?: boolean;
  added?: boolean;
  claimed?: Tile;
  from?: string;
}

export interface SeatView {
  seat: number;
  wind: Wind;
  melds: Meld[];
  flowers: Tile[];
  discards: Tile[];
  concealed_count: number;
  ting: boolean;
  ting_tile: Tile | null;
  concealed: Tile[] | null; // your own (sorted, the drawn tile included); everyone's after the hand
  drawn?: Tile | null;
  missed_win?: boolean;
}

export interface HandView {
  number: number;
  commitment: string;
  dice: number[];
  wall_left: number;
  turn: number;
  discarder: number | null;
  discard: Tile | null;
  pending: number[];
  seats: SeatView[];
  wall?: Tile[];
  salt?: string;
}

/** The table engine's view for one seat (docs/table.md "Views"). */
export interface GameView {
  seq: number;
  ruleset: string;
  phase: "turn" | "claim" | "rob" | "between_hands" | "game_over" | string;
  you: number | null;
  dealer: number;
  round_wind: Wind;
  hands_played: number;
  streak: number;
  scores: number[];
  hand: HandView | null;
  legal_actions: LegalAction[];
}

/** One line of the scoring breakdown: `name` is the rules' own (Chinese) name. */
export interface ScoredPattern {
  id: string;
  name: string;
  en: string;
  points: number;
  count: number;
}

export interface Winner {
  seat: number;
  hand: { concealed: Tile[]; melds: Meld[]; flowers: Tile[]; win_tile: Tile; [k: string]: unknown };
  score: { ruleset: string; total: number; minimum_met: boolean; items: ScoredPattern[]; [k: string]: unknown } | null;
  payments: { payer: number; payee: number; amount: number; reason?: string }[];
}

export type GameEvent =
  | { type: "hand_started"; hand: number; round_wind: Wind; dealer: number; streak: number; seat_winds: Wind[]; commitment: string; dice: number[]; tiles: number }
  | { type: "dealt"; seat: number; count: number; tiles?: Tile[] }
  | { type: "draw"; seat: number; replacement: boolean; wall_left: number; tile?: Tile }
  | { type: "flower"; seat: number; tile: Tile }
  | { type: "discard"; seat: number; tile: Tile; auto?: boolean }
  | { type: "ting"; seat: number; tile: Tile; kind?: string; auto?: boolean }
  | { type: "answered"; seat: number; answer?: string }
  | { type: "claimed"; seat: number; claim: "chow" | "pung" | "kong"; from: number; meld: Meld }
  | { type: "kong_declared"; seat: number; tile: Tile; added?: boolean }
  | { type: "kong"; seat: number; tile?: Tile; concealed?: boolean; added?: boolean }
  | { type: "instant"; seat: number; kind: string; [k: string]: unknown }
  | { type: "timeout"; seat: number; default: string }
  | { type: "payment"; hand: number; payer: number; payee: number; amount: number; reason: string }
  | { type: "hand_won"; hand: number; how: string; tile: Tile; discarder: number | null; winners: Winner[] }
  | { type: "hand_drawn"; hand: number; reason: string }
  | { type: "hand_ended"; hand: number; result: string; winners: number[]; commitment: string; salt: string; wall: Tile[]; hands: Tile[][] }
  | { type: "next_hand"; hand: number; dealer: number; round_wind: Wind; streak: number }
  | { type: "game_over"; hands?: number; scores?: number[] };

export interface ChatLine {
  player: string;
  name: string;
  text: string;
  t: number;
}

export interface GameSummary {
  ruleset: string;
  hands_played: number;
  scores: number[];
  ledger: { hand: number; payer: number; payee: number; amount: number; reason: string }[];
  last_result?: unknown;
}

export type Notice =
  | { type: "room_created" | "joined" | "left"; player: string; name: string }
  | { type: "seat_away" | "seat_back" | "bot_took_over"; seat: number }
  | { type: "room_closed"; reason: string }
  | { type: "game_over"; summary: GameSummary };

export interface You {
  player: string;
  seat: number | null;
  spectator: boolean;
}

export type ServerMessage =
  | { type: "welcome"; v: number; player_id: string; token: string; name: string; resumed: boolean; rooms: string[]; server: string; limits: Record<string, unknown>; rulesets: string[]; re?: number; sparse?: boolean }
  | { type: "pong"; t?: number; server_ms?: number; re?: number }
  | { type: "error"; code: string; message: string; detail?: Record<string, unknown>; re?: number }
  | { type: "room_list"; rooms: { id: string; code: string; ruleset: string; status: string; seats_free: number; players: string[] }[]; re?: number }
  | { type: "snapshot"; room: string; seq: number; lobby: Lobby; you: You; game?: GameView; legal?: LegalAction[]; deadline?: number; re?: number }
  | { type: "events"; room: string; seq: number; events: GameEvent[]; lobby?: Lobby; chat?: ChatLine; notice?: Notice; legal?: LegalAction[]; deadline?: number; prev?: number }
  | { type: "ack"; room: string; seq: number; client_seq?: number; duplicate: boolean; re?: number }
  | { type: "game_log"; room: string; log: Record<string, unknown>; re?: number }
  | { type: "left"; room: string; re?: number }
  | { type: "closing"; reason: string; reconnect: boolean; retry_after_ms?: number };

export type SnapshotMessage = Extract<ServerMessage, { type: "snapshot" }>;
export type EventsMessage = Extract<ServerMessage, { type: "events" }>;
