// The connection to mahjong-server and the app's state: one WebSocket (binary msgpack
// frames), hello with the stored token, a reducer per room, automatic reconnect (the
// server's `closing` notice honoured), request ids, the client's action seq kept with the
// token. Components subscribe and re-render on every change.
import { measureToPaint } from "../ui/perf";
import { decode, encode } from "@msgpack/msgpack";
import {
  PROTOCOL_VERSION,
  type ClientMessage,
  type LegalAction,
  type RoomOptions,
  type ServerMessage,
} from "../protocol/types";
import { errorText, t } from "../i18n";
import { answeredThrough, applyEvents, fromSnapshot, type RoomModel } from "../state/reducer";
import { clockOffset } from "./clock";

export type Status = "connecting" | "online" | "reconnecting" | "restarting" | "replaced";

/** This bundle's build id (vite.config.ts): the welcome says the server's. */
export const BUILD_ID: string = typeof __BUILD_ID__ === "string" ? __BUILD_ID__ : "dev";

export type RoomInfo = Extract<ServerMessage, { type: "room_list" }>["rooms"][number];

export interface Toast {
  id: number;
  text: string;
  kind: "error" | "info";
}

export interface AppState {
  status: Status;
  /** when status is "restarting": when we try again (ms, local clock) */
  retryAt: number | null;
  player: string | null;
  name: string;
  rulesets: string[];
  rooms: Record<string, RoomModel>;
  current: string | null;
  roomList: Extract<ServerMessage, { type: "room_list" }>["rooms"];
  toasts: Toast[];
  /** server clock minus local clock (ms), from ping/pong */
  offset: number;
  /** the web build the server serves (welcome.build); differs from BUILD_ID: reload */
  serverBuild: string | null;
  /** an invite link's room (/r/<code>) before joining it: undefined while asked, null: none */
  invite: RoomInfo | null | undefined;
}

const KEY_TOKEN = "mahjong.token";
const KEY_NAME = "mahjong.name";
const KEY_SEQ = "mahjong.seq";

type Listener = () => void;

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** The player's token this browser holds (from `welcome`), for the archive's HTTP API. */
export function storedToken(): string | null {
  return storage()?.getItem(KEY_TOKEN) ?? null;
}

export class Client {
  state: AppState;
  private ws: WebSocket | null = null;
  private listeners = new Set<Listener>();
  private nextId = 1;
  private waiting = new Map<number, (m: ServerMessage) => void>();
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private wantRoomCode: string | null;
  private toastId = 0;
  /** The name the hello in flight said (undefined: none): a rename while it was in flight
   * needs one more hello once it is welcomed. */
  private helloName: string | undefined;
  /** the seq of the last ack of an action per room (after a held answer, the room's seq + 1):
   * `legal` of older frames is not acted on */
  lastActionAck: Record<string, number> = {};

  constructor(private readonly url: string, roomCode: string | null) {
    this.wantRoomCode = roomCode;
    this.state = {
      status: "connecting",
      retryAt: null,
      player: null,
      name: storage()?.getItem(KEY_NAME) ?? "",
      rulesets: [],
      rooms: {},
      current: null,
      roomList: [],
      toasts: [],
      offset: 0,
      serverBuild: null,
      invite: undefined,
    };
  }

  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private set(patch: Partial<AppState>): void {
    this.state = { ...this.state, ...patch };
    this.syncUrl();
    for (const fn of this.listeners) fn();
  }

  /** The address bar shows the room's link (/r/<code>), or / outside a room. */
  private syncUrl(): void {
    if (typeof location === "undefined" || this.state.status !== "online") return;
    const room = this.state.current ? this.state.rooms[this.state.current] : undefined;
    const path = room ? `/r/${room.lobby.code}` : this.wantRoomCode ? location.pathname : "/";
    if (location.pathname !== path) history.replaceState(null, "", path);
  }

  /** The room code of the invite link this page was opened with, until it is joined. */
  get inviteCode(): string | null {
    return this.wantRoomCode;
  }

  /** The server serves another build of this client: the page should be reloaded. */
  get newVersion(): boolean {
    return this.state.serverBuild !== null && this.state.serverBuild !== BUILD_ID;
  }

  get hasName(): boolean {
    return this.state.name.trim().length > 0;
  }

  /** Remember the name; a connected player is renamed by saying hello again (the protocol
   * renames on a resuming hello). */
  setName(name: string): void {
    storage()?.setItem(KEY_NAME, name);
    this.set({ name });
    if (this.ws && this.state.status === "online") {
      const old = this.ws;
      this.ws = null;
      old.close(1000);
      // not online until the server has welcomed the new name: a room created meanwhile
      // would have the old one
      this.set({ status: "connecting" });
      this.connect();
    }
  }

  // ------------------------------------------------------------------ connection

  connect(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const ws = new WebSocket(this.url);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => {
      const token = storage()?.getItem(KEY_TOKEN) ?? undefined;
      const hello: ClientMessage = { type: "hello", v: PROTOCOL_VERSION, client: "web/0.1", sparse: true, client_build: BUILD_ID };
      if (this.state.name) hello.name = this.state.name.slice(0, 32);
      if (token) hello.token = token;
      this.helloName = hello.name ?? undefined;
      this.send(hello);
    };
    ws.onmessage = (ev) => {
      if (!(ev.data instanceof ArrayBuffer)) return;
      const t0 = performance.now();
      const msg = decode(new Uint8Array(ev.data)) as ServerMessage;
      this.receive(msg);
      if (msg.type === "events") measureToPaint("mj:frame→screen", t0, { seq: msg.seq });
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (ev.code === 4002) {
        this.set({ status: "replaced" });
        return;
      }
      if (ev.code === 4003) storage()?.removeItem(KEY_TOKEN); // unknown token: a new player
      this.scheduleReconnect(this.state.status === "restarting" ? this.state.retryAt : null);
    };
  }

  /** The name was changed after the hello in flight was sent (setName reconnects only an
   * online client): say hello again under the new name, still "connecting", so nothing is
   * done under the old one. True when it did. */
  private renamedInFlight(): boolean {
    const name = this.state.name ? this.state.name.slice(0, 32) : undefined;
    if (name === undefined || name === this.helloName || !this.ws) return false;
    const old = this.ws;
    this.ws = null;
    old.close(1000);
    this.connect();
    return true;
  }

  /** Take the seat back after another tab or device took it (close 4002). */
  takeOver(): void {
    this.set({ status: "connecting" });
    this.connect();
  }

  private scheduleReconnect(at: number | null): void {
    this.attempts += 1;
    const backoff = Math.min(10_000, 500 * 2 ** Math.min(this.attempts, 5)) * (0.5 + Math.random());
    const when = at !== null && at > Date.now() ? at : Date.now() + (this.attempts === 1 ? 200 : backoff);
    if (this.state.status !== "restarting") this.set({ status: "reconnecting", retryAt: when });
    this.timer = setTimeout(() => this.connect(), when - Date.now());
  }

  /** Try the server now instead of at the next scheduled retry (the network came back, or
   * the player asked). Nothing happens while connected or connecting. */
  retryNow(): void {
    if (this.state.status !== "reconnecting" || this.timer === null) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.connect();
  }

  send(msg: ClientMessage): void {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(encode(msg));
  }

  /** Send with a request id; the reply (or error) with the same `re` resolves it. */
  request(msg: ClientMessage): Promise<ServerMessage> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.send({ ...msg, id } as ClientMessage);
    });
  }

  // ------------------------------------------------------------------ frames

  /** Handle one frame from the server (public for the browser tests, which replay the
   * server's own frames of the golden games: tests/web_tests/scenes.py). */
  receive(msg: ServerMessage): void {
    const re = "re" in msg ? msg.re : undefined;
    if (re !== undefined && re !== null) {
      const done = this.waiting.get(re);
      this.waiting.delete(re);
      done?.(msg);
    }
    switch (msg.type) {
      case "welcome": {
        storage()?.setItem(KEY_TOKEN, msg.token);
        if (this.renamedInFlight()) return;
        this.attempts = 0;
        const keep: Record<string, RoomModel> = {};
        for (const r of msg.rooms) if (this.state.rooms[r]) keep[r] = this.state.rooms[r]!;
        this.set({
          status: "online",
          retryAt: null,
          player: msg.player_id,
          rulesets: msg.rulesets,
          rooms: keep,
          current: this.state.current && msg.rooms.includes(this.state.current) ? this.state.current : (msg.rooms[0] ?? null),
          serverBuild: msg.build ?? null,
        });
        const t = Date.now();
        void this.request({ type: "ping", t }).then((p) => {
          if (p.type === "pong" && p.server_ms) this.set({ offset: clockOffset(t, Date.now(), p.server_ms) });
        });
        if (this.wantRoomCode && this.hasName) {
          const code = this.wantRoomCode;
          this.wantRoomCode = null;
          const already = Object.values(this.state.rooms).find((r) => r.lobby.code === code.toUpperCase());
          if (!already) void this.join(code);
        } else if (this.wantRoomCode && this.state.invite === undefined) {
          // the invite page: the room's rule set, length and timers before joining
          const code = this.wantRoomCode;
          void this.request({ type: "list_rooms", code }).then((r) => {
            if (r.type === "room_list") this.set({ invite: r.rooms[0] ?? null });
          });
        }
        return;
      }
      case "snapshot": {
        const old = this.state.rooms[msg.room];
        const m = fromSnapshot(msg, old?.chat ?? []);
        this.set({ rooms: { ...this.state.rooms, [msg.room]: m }, current: this.state.current ?? msg.room });
        return;
      }
      case "events": {
        const old = this.state.rooms[msg.room];
        if (!old) return;
        const m = applyEvents(old, msg);
        if (m.gap && !old.gap) this.send({ type: "resync", room: msg.room, since: old.seq });
        if (m !== old) this.set({ rooms: { ...this.state.rooms, [msg.room]: m } });
        if (m.lobby.status === "closed") this.forget(msg.room);
        return;
      }
      case "left":
        if (msg.reason === "kicked") {
          const code = this.state.rooms[msg.room]?.lobby.code ?? "";
          this.toast(t.kickedFrom(code), "error");
        }
        this.forget(msg.room);
        return;
      case "error":
        // in the page's language by its code; the server's own (English) message for a code
        // this page does not know
        this.toast(errorText(msg.code, msg.message), "error");
        return;
      case "closing": {
        const at = Date.now() + (msg.retry_after_ms ?? 1000 + Math.random() * 2000);
        this.set({ status: "restarting", retryAt: at });
        return;
      }
      case "room_list":
        if (re === undefined || re === null) this.set({ roomList: msg.rooms });
        return;
      default:
        return;
    }
  }

  private forget(room: string): void {
    const rooms = { ...this.state.rooms };
    delete rooms[room];
    this.set({ rooms, current: this.state.current === room ? (Object.keys(rooms)[0] ?? null) : this.state.current });
  }

  toast(text: string, kind: Toast["kind"] = "info"): void {
    const id = ++this.toastId;
    this.set({ toasts: [...this.state.toasts, { id, text, kind }].slice(-4) });
    setTimeout(() => this.set({ toasts: this.state.toasts.filter((t) => t.id !== id) }), 6000);
  }

  // ------------------------------------------------------------------ requests

  async join(code: string): Promise<void> {
    const r = await this.request({ type: "join_room", code });
    if (r.type === "ack") this.set({ current: r.room });
  }

  /** Create a room and take its first seat (the server makes its creator a spectator). */
  async create(ruleset: string, options: RoomOptions): Promise<void> {
    const r = await this.request({ type: "create_room", ruleset, options });
    if (r.type !== "ack") return;
    this.set({ current: r.room });
    await this.request({ type: "sit", room: r.room, seat: 0 });
  }

  /** Change your seat's play settings (`toggles`); once the server acks, the room's
   * `you.toggles` has them (the server sends them only in a snapshot). */
  async setToggles(room: string, change: Partial<Record<"auto_win" | "no_claims" | "auto_discard", boolean>>): Promise<void> {
    const r = await this.request({ type: "toggles", room, ...change });
    const m = this.state.rooms[room];
    if (r.type !== "ack" || !m) return;
    const toggles = { auto_win: false, no_claims: false, auto_discard: false, ...(m.you.toggles ?? {}), ...change };
    this.set({ rooms: { ...this.state.rooms, [room]: { ...m, you: { ...m.you, toggles } } } });
  }

  listRooms(): void {
    void this.request({ type: "list_rooms" }).then((r) => {
      if (r.type === "room_list") this.set({ roomList: r.rooms });
    });
  }

  private nextSeq(room: string): number {
    const key = `${KEY_SEQ}.${this.state.player}.${room}`;
    const n = Number(storage()?.getItem(key) ?? "0") + 1;
    storage()?.setItem(key, String(n));
    return n;
  }

  /** Send one of the `legal` entries back (minus `seat`), numbered with the next client seq. */
  async act(room: string, a: LegalAction): Promise<void> {
    const { seat: _seat, ...action } = a; // the server knows the seat
    const r = await this.request({ type: "action", room, seq: this.nextSeq(room), action });
    if (r.type !== "ack") return;
    // a held answer to a claim window (no commit: seq is the room's) answers the prompt of
    // every frame up to it; the window's close (seq + 1) brings the next question
    const answered = answeredThrough(r);
    this.lastActionAck[room] = Math.max(this.lastActionAck[room] ?? 0, answered);
    if (r.held) this.set({}); // clear the prompt now
  }

  select(room: string | null): void {
    this.set({ current: room });
  }
}
