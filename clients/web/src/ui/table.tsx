import { useEffect, useRef, useState } from "preact/hooks";
import type { Client } from "../net/client";
import type { LegalAction, SeatView, Tile as TileCode } from "../protocol/types";
import { offered, seatName, splitDrawn, type RoomModel } from "../state/reducer";
import { lang, rulesetName, t } from "../i18n";
import { useTick } from "./hooks";
import { HintsPanel, TogglesPanel } from "./hints";
import { MembersPanel, PauseButton, PausedBanner } from "./host";
import { num } from "./format";
import { keyIntent } from "./keys";
import { LangSwitch } from "./lang";
import { Chat } from "./lobby";
import { GameOver } from "./gameover";
import { ResultDialog } from "./result";
import { discardClicked, riverGrew } from "./perf";
import { logLine, seatWords } from "./seat";
import { SeatClock, SoundSwitch, useSignals } from "./signals";
import { MeldView, Tile } from "./tile";
import { secondsLeft } from "../net/clock";

type WindCode = "we" | "ws" | "ww" | "wn";
const WIND_ZH: Record<string, string> = { we: "東", ws: "南", ww: "西", wn: "北" };
/** A wind in words: "East" in English, 東 / 东 in Chinese. */
function windName(w: string): string {
  return w in t.winds ? t.winds[w as WindCode] : w;
}
/** The wind's character, as the compass shows it (Simplified 东 in 简体中文). */
function windChar(w: string): string {
  return lang() === "en" ? (WIND_ZH[w] ?? w) : windName(w);
}
const CLAIM_ORDER = ["win", "kong", "pung", "chow"];

function chowTiles(t: TileCode): TileCode[] {
  const n = Number(t[0]);
  const s = t[1] ?? "";
  return [`${n}${s}`, `${n + 1}${s}`, `${n + 2}${s}`];
}

/** The tiles a claim makes, the claimed tile last-marked (drawn on its button). */
function claimTiles(a: LegalAction, discard: TileCode | null): TileCode[] {
  const d = a.tile ?? discard ?? "";
  if (a.type === "chow" && a.tile) return chowTiles(a.tile);
  if (a.type === "pung") return [d, d, d];
  if (a.type === "kong") return [d, d, d, d];
  if (a.type === "win") return [discard ?? d];
  return [];
}

type ActionType = keyof typeof t.actions;
function actionWords(type: string): string {
  return type in t.actions ? t.actions[type as ActionType] : type;
}

export function TableView({ client, room }: { client: Client; room: RoomModel }) {
  const g = room.game!;
  const h = g.hand;
  const me = room.you.seat;
  const base = me ?? 0;
  const [selected, setSelected] = useState<TileCode | null>(null);
  const [showChat, setShowChat] = useState(false);
  const [showHints, setShowHints] = useState(false);
  const [showToggles, setShowToggles] = useState(false);
  const [showMembers, setShowMembers] = useState(false);
  const [hideResult, setHideResult] = useState(false);
  const legal = offered(room.legal, room.seq, client.lastActionAck[room.room]);
  const claiming = legal.some((a) => a.type === "pass");
  const discards = legal.filter((a) => a.type === "discard");
  const tings = legal.filter((a) => a.type === "ting");
  // with auto-win on the server declares the win itself: no Win button to press
  const autoWin = !!room.you.toggles?.auto_win;
  const turnOthers = legal.filter((a) => a.type === "concealed_kong" || a.type === "added_kong" || (a.type === "win" && !claiming));
  const shownOthers = turnOthers.filter((a) => !(autoWin && a.type === "win"));
  const claimOptions = claiming
    ? legal
        .filter((a) => a.type !== "pass" && !(autoWin && a.type === "win"))
        .sort((a, b) => CLAIM_ORDER.indexOf(a.type) - CLAIM_ORDER.indexOf(b.type))
    : [];
  // while the connection is down an action would go nowhere: the buttons say so
  const offline = client.state.status !== "online";
  const pass = legal.find((a) => a.type === "pass");
  const act = (a: LegalAction) => {
    setSelected(null);
    if (a.type === "discard" || a.type === "ting") discardClicked();
    void client.act(room.room, a);
  };
  const discardSel = () => {
    const a = discards.find((d) => d.tile === selected);
    if (a) act(a);
  };
  const tingSel = tings.find((d) => d.tile === selected);
  // your answer to the window is in (held): nothing to do but wait for the others
  const waitingTable = !claiming && room.legal.some((a) => a.type === "pass") && (g.phase === "claim" || g.phase === "rob");
  useSignals(room, discards.length > 0, claiming);
  const myRiver = me !== null ? (room.rivers[me]?.length ?? 0) : 0;
  useEffect(() => riverGrew(), [myRiver]);

  useEffect(() => setHideResult(false), [room.result?.hand, room.result?.kind]);
  useEffect(() => {
    if (selected && !discards.some((d) => d.tile === selected)) setSelected(null);
  }, [room.seq]);
  // keyboard (ui/keys.ts): the claim options, pass, discard, 叮, win, kong, ←/→ in screen order
  const screenOrder = (() => {
    const seat = me !== null ? h?.seats[me] : undefined;
    if (!seat) return [];
    const { rest, drawn } = splitDrawn(seat);
    const can = new Set(discards.map((d) => d.tile));
    const out = [...new Set(rest.filter((t) => can.has(t) && t !== drawn))];
    if (drawn && can.has(drawn)) out.push(drawn);
    return out;
  })();
  // the selection as of the last key, not of the last render: keys pressed faster than the
  // screen redraws each move on from the one before
  const selRef = useRef(selected);
  selRef.current = selected;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const target = (e.target as HTMLElement | null)?.tagName ?? "";
      const ctx = { target, claiming, claimOptions, pass, order: screenOrder, selected: selRef.current, discards, tings, turnOthers: shownOthers };
      const intent = keyIntent(e.key, ctx);
      if (!intent) return;
      e.preventDefault();
      if ("act" in intent) act(intent.act);
      else {
        selRef.current = intent.select;
        setSelected(intent.select);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const mySeat = me !== null ? h?.seats[me] : undefined;
  const order = [0, 1, 2, 3].map((k) => (base + k) % 4); // bottom, right, top, left
  const pos = ["bottom", "right", "top", "left"];
  const wallText = !h ? "" : h.wall_left >= 0 ? t.wall(h.wall_left) : t.wallUnknown;
  return (
    <main class={`table ${me === null ? "spectating" : ""} ${(mySeat?.concealed?.length ?? 0) > 14 ? "long-hand" : ""}`} data-testid="table">
      <header class="bar">
        <strong>{room.lobby.code}</strong>
        <span>· {rulesetName(g.ruleset)}</span>
        <span data-testid="round">· {t.round(windName(g.round_wind), (h?.number ?? 0) + 1)}</span>
        <span data-testid="wall">· {wallText}</span>
        {me === null && <span class="badge">{t.watching}</span>}
        <span class="grow" />
        {me !== null && (
          <button type="button" class="small" onClick={() => setShowHints(!showHints)} data-testid="hints-toggle">
            {t.hints}
          </button>
        )}
        {me !== null && (
          <button type="button" class="small" onClick={() => setShowToggles(!showToggles)} data-testid="toggles-button">
            {t.auto}
          </button>
        )}
        <PauseButton client={client} room={room} />
        {room.lobby.host === client.state.player && (
          <button type="button" class="small" onClick={() => setShowMembers(!showMembers)} data-testid="members-toggle">
            {t.members}
          </button>
        )}
        <button type="button" class="small" onClick={() => setShowChat(!showChat)} data-testid="chat-toggle">
          {t.chat}
          {room.chat.length ? ` (${room.chat.length})` : ""}
        </button>
        <SoundSwitch />
        <LangSwitch />
        <button type="button" class="small" data-testid="leave" onClick={() => void client.request({ type: "leave_room", room: room.room })}>
          {t.leave}
        </button>
      </header>
      <PausedBanner client={client} room={room} />
      <div class="panels">
        {showMembers && <MembersPanel client={client} room={room} />}
        {showChat && <Chat client={client} room={room} />}
        {showHints && me !== null && h && <HintsPanel client={client} room={room} />}
        {showToggles && me !== null && <TogglesPanel client={client} room={room} />}
      </div>
      {h && (
        <div class="felt" tabIndex={0} role="region" aria-label={t.title}>
          {order.map((seat, k) => (
            <SeatPanel key={seat} room={room} seat={seat} where={pos[k]!} offset={client.state.offset} />
          ))}
          <div class="center">
            {order.map((seat, k) => (
              <River key={seat} room={room} seat={seat} where={pos[k]!} />
            ))}
            <div class="compass">
              <div class="rw">{windChar(g.round_wind)}</div>
              <div>{wallText}</div>
              <Countdown room={room} offset={client.state.offset} />
            </div>
          </div>
        </div>
      )}
      {waitingTable && (
        <p class="waiting-table" role="status" data-testid="waiting-table">
          {t.waitingTable}
        </p>
      )}
      {claiming && h && (
        <section class="sheet" data-testid="claim">
          <div class="sheet-head">
            {h.discarder !== null && seatWords(room, h.discarder)} {g.phase === "rob" ? t.addsKong : t.discards}{" "}
            {h.discard && <Tile code={h.discard} size="meld" />}
            {autoWin && legal.some((a) => a.type === "win") && <span class="muted">— Auto wins it for you</span>}
            <Countdown room={room} offset={client.state.offset} bar />
          </div>
          <div class="sheet-buttons">
            {claimOptions.map((a, i) => (
              <button type="button" key={i} class="big primary" data-testid={`claim-${a.type}`} disabled={offline} onClick={() => act(a)}>
                <kbd>{i + 1}</kbd> {actionWords(a.type)}
                <span class="claim-tiles">
                  {claimTiles(a, h.discard).map((t, j) => (
                    <Tile key={j} code={t} size="hand" mark={t === h.discard} />
                  ))}
                </span>
              </button>
            ))}
            {pass && (
              <button type="button" class="big" data-testid="claim-pass" disabled={offline} onClick={() => act(pass)}>
                <kbd>{t.spaceKey}</kbd> {t.actions.pass}
              </button>
            )}
          </div>
        </section>
      )}
      {room.log.length > 0 && (
        <div class="log" data-testid="log">
          {logLine(room, room.log[room.log.length - 1]!)}
        </div>
      )}
      {me !== null && mySeat && (
        <section class="me" data-testid="me">
          <div class="my-melds">
            {mySeat.flowers.length > 0 && (
              <span class="flowers">
                {mySeat.flowers.map((f, i) => (
                  <Tile key={i} code={f} size="small" />
                ))}
              </span>
            )}
            {mySeat.melds.map((m, i) => (
              <MeldView key={i} meld={m} />
            ))}
          </div>
          <Hand seat={mySeat} selected={selected} canDiscard={discards} onTap={(t) => (selected === t ? (setSelected(null), act(discards.find((d) => d.tile === t)!)) : setSelected(t))} />
          <div class="actions" data-testid="actions">
            {discards.length > 0 && (
              <button type="button" class="primary big" data-testid="discard" disabled={!selected || offline} onClick={discardSel}>
                {t.discard}
                {offline ? t.discardOffline : selected ? "" : t.tapATile}
              </button>
            )}
            {tingSel && (
              <button type="button" class="big" data-testid="ting" disabled={offline} onClick={() => act(tingSel)}>
                {t.actions.ting}
              </button>
            )}
            {!tingSel && tings.length > 0 && <span class="muted">{t.tingPossible(tings.map((a) => a.tile).join(" "))}</span>}
            {shownOthers.map((a, i) => (
              <button type="button" class="big" key={i} data-testid={`act-${a.type}`} disabled={offline} onClick={() => act(a)}>
                {actionWords(a.type)} {a.tile && <Tile code={a.tile} size="small" />}
              </button>
            ))}
          </div>
        </section>
      )}
      {room.result && !hideResult && (g.phase === "between_hands" || g.phase === "game_over") && (
        <ResultDialog room={room} onClose={() => setHideResult(true)} />
      )}
      {room.summary && (hideResult || !room.result) && <GameOver client={client} room={room} />}
    </main>
  );
}

function Hand({ seat, selected, canDiscard, onTap }: { seat: SeatView; selected: TileCode | null; canDiscard: LegalAction[]; onTap: (t: TileCode) => void }) {
  const { rest: tiles, drawn } = splitDrawn(seat);
  const can = new Set(canDiscard.map((a) => a.tile));
  let selShown = false;
  const one = (t: TileCode, i: number, extra = "") => {
    const sel = !selShown && t === selected;
    if (sel) selShown = true;
    return <Tile key={extra + i} code={t} size="hand" selected={sel} onClick={can.has(t) ? () => onTap(t) : undefined} testid="hand-tile" />;
  };
  // the drawn tile is selected first when it matches (it is the one usually thrown)
  const drawnEl = drawn ? (
    <span class="drawn" data-testid="drawn">
      {(() => {
        const sel = drawn === selected;
        if (sel) selShown = true;
        return <Tile code={drawn} size="hand" selected={sel} onClick={can.has(drawn) ? () => onTap(drawn) : undefined} testid="hand-tile" />;
      })()}
    </span>
  ) : null;
  return (
    <div class={`hand ${tiles.length > 13 ? "long" : ""}`} data-testid="hand">
      {drawnEl && <span class="hand-rest">{drawnEl}</span>}
      <span class="hand-main">{tiles.map((t, i) => one(t, i))}</span>
    </div>
  );
}

function SeatPanel({ room, seat, where, offset }: { room: RoomModel; seat: number; where: string; offset: number }) {
  const g = room.game!;
  const s = g.hand!.seats[seat]!;
  const ls = room.lobby.seats[seat];
  const turn = g.hand!.turn === seat && g.phase === "turn";
  const isMe = seat === room.you.seat;
  return (
    <div class={`seat seat-${where} ${turn ? "active" : ""}`} data-testid={`seat-${where}`} data-seat={seat}>
      <div class="seat-head">
        <span class="wind-badge" title={windName(s.wind)}>
          {windChar(s.wind)}
        </span>
        <span class="name">{ls?.name ?? t.seat(seat + 1)}</span>
        {(ls?.bot || ls?.auto) && (
          <span class="badge" title={t.playedByBot}>
            {t.bot}
          </span>
        )}
        {ls?.away && <span class="badge">{t.away}</span>}
        {g.dealer === seat && <span class="badge dealer">{t.dealer}</span>}
        {s.ting && <span class="badge ting">叮</span>}
        <SeatClock room={room} seat={seat} offset={offset} />
        <span class="score" data-testid="score">
          {num(g.scores[seat] ?? 0)}
        </span>
      </div>
      {!isMe && (
        <div class="seat-tiles">
          {s.flowers.length > 0 && (
            <span class="flowers">
              {s.flowers.map((f, i) => (
                <Tile key={i} code={f} size="small" />
              ))}
            </span>
          )}
          {s.melds.map((m, i) => (
            <MeldView key={i} meld={m} size="small" />
          ))}
          {s.concealed && (g.phase === "between_hands" || g.phase === "game_over") ? (
            <span class="revealed">
              {s.concealed.map((t, i) => (
                <Tile key={i} code={t} size="small" />
              ))}
            </span>
          ) : (
            <span class="backs" title={t.tilesCount(s.concealed_count)}>
              <Tile code="back" size="small" /> ×{s.concealed_count}
            </span>
          )}
        </div>
      )}
    </div>
  );
}

/** A seat's discards, under its wind and name (the seat band and the rivers in the same order). */
function River({ room, seat, where }: { room: RoomModel; seat: number; where: string }) {
  const river = room.rivers[seat] ?? [];
  const last = room.lastDiscard;
  const wind = room.game?.hand?.seats[seat]?.wind ?? "";
  return (
    <div class={`river-box river-box-${where}`}>
      <div class="river-name" data-testid={`river-name-${where}`}>
        {windChar(wind)} {seatWords(room, seat)}
      </div>
      <div class={`river river-${where}`} data-testid={`river-${where}`}>
        {river.map((t, i) => (
          <Tile key={i} code={t.tile} size="river" dim={t.claimed} mark={!!last && last.seat === seat && i === river.length - 1 && !t.claimed} />
        ))}
      </div>
    </div>
  );
}

function Countdown({ room, offset, bar }: { room: RoomModel; offset: number; bar?: boolean }) {
  const now = useTick(250);
  if (!room.deadline) return null;
  const left = Math.max(0, room.deadline - (now + offset));
  const secs = secondsLeft(room.deadline, now, offset);
  if (bar) {
    const total = (room.lobby.options.claim_seconds as number | undefined) ?? 10;
    return (
      <div class="timebar" aria-label={t.secondsLeft(secs)}>
        <div style={{ width: `${Math.min(100, (left / 10 / Math.max(1, total)) * 1)}%` }} />
      </div>
    );
  }
  return (
    <div class="timer" data-testid="timer">
      {t.seconds(secs)}
    </div>
  );
}
