// The wire protocol (docs/protocol.md, version 1) as the client uses it. Every shape comes
// from ./generated.ts, which `python -m protocol.schema --write` generates from the server's
// typed definitions (protocol/schema.json); this module only names them for the client and
// adds nothing to the wire. CI fails when generated.ts is stale.

import type * as G from "./generated";

export const PROTOCOL_VERSION = 1;


export type Tile = G.Tile;
export type Wind = G.EventHandStarted["round_wind"];

/** `create_room.options`: any of the room options (the server fills in the rest). */
export type RoomOptions = Partial<G.RoomOptions>;

/** A legal action as the server lists it (sent back unchanged, minus `seat`). */
export type LegalAction = G.Action & { tile?: Tile };

export type ClientMessage = G.ClientMessage;
export type ServerMessage = G.ServerMessage;
export type SnapshotMessage = G.ServerSnapshot;
export type EventsMessage = G.ServerEvents;

export type Lobby = G.Lobby;
export type LobbySeat = G.LobbySeat;
export type You = G.You;
export type ChatLine = G.ChatLine;
export type Notice = G.Notice;
export type GameSummary = G.Summary;
/** A finished game's log (`game_log.log`, a saved log file, the archive's `game_log`). */
export type GameLogDoc = G.GameLogDoc;

export type GameView = G.GameView;
export type HandView = G.HandView;
export type SeatView = G.SeatView;
/** A meld as a view shows it (another seat's concealed kong: `tiles` null). */
export type Meld = G.Meld | G.HiddenKong;

export type GameEvent = G.Event;
export type Winner = G.Winner;
/** One line of the scoring breakdown: `name` is the rules' own (Chinese) name. */
export type ScoredPattern = G.ScoreItem;
/** A ledger line; in `hand_won` with the settlement's arithmetic (`parts`, `share`). */
export type Payment = G.Payment;
export type PaymentPart = G.Part;
/** A public countdown of the table: the seat in turn's deadline, an away seat's grace. */
export type Clock = G.Clock;
