// The replay viewer: a finished game stepped through hand by hand and action by action, every
// hand open, with the win dialog's breakdown and payments (ui/result.tsx) once a hand is won.
// The steps are the log's events run through the client's own reducer (state/replay.ts);
// ←/→ step, PageUp/PageDown (or Shift+←/→) go by hand. The moment is kept in the page's
// address (`?hand=3&step=41`: the hand from 1, the steps since its deal) to be shared.
import { useEffect, useRef, useState } from "preact/hooks";
import type { GameEvent } from "../protocol/types";
import type { OpenSeat, OpenTable, Replay } from "../state/replay";
import { t } from "../i18n";
import { tileName } from "../tiles/art";
import { num } from "./format";
import { ResultBody } from "./result";
import { MeldView, Tile } from "./tile";

/** The moment of a replay as the address says it: `?hand=H&step=S` (hand from 1). */
export function momentOf(search: string, replay: Replay): number {
  const q = new URLSearchParams(search);
  const hand = Math.max(1, Number(q.get("hand") ?? 1) || 1);
  const step = Math.max(0, Number(q.get("step") ?? 0) || 0);
  return replay.stepOf(hand - 1, step);
}

/** `?hand=H&step=S` for a step of the replay. */
export function momentQuery(replay: Replay, step: number): string {
  const hand = replay.handOf(step);
  return `?hand=${hand + 1}&step=${step - (replay.handStarts[hand] ?? 0)}`;
}

function narrate(events: GameEvent[], names: string[]): string[] {
  const out: string[] = [];
  for (const e of events) {
    const who = "seat" in e && typeof e.seat === "number" ? (names[e.seat] ?? "") : "";
    if (e.type === "hand_started") out.push(t.dealt);
    else if (e.type === "draw" && !e.replacement) out.push(t.draws(who));
    else if (e.type === "discard") out.push(t.discardsTile(who, tileName(e.tile)));
    else if (e.type === "claimed") out.push(t.log[e.claim](who, tileName(e.meld.claimed ?? "")));
    else if (e.type === "kong") out.push(t.log.kong(who, e.tile ? tileName(e.tile) : ""));
  }
  return out;
}

function SeatPanel({ s, dealer }: { s: OpenSeat; dealer: boolean }) {
  return (
    <section class={`card replay-seat ${s.turn ? "turn" : ""}`} data-testid="replay-seat" data-seat={s.seat}>
      <div class="row">
        <strong class="grow">{s.name}</strong>
        <span class="muted">{t.winds[s.wind as keyof typeof t.winds] ?? ""}</span>
        {dealer && <span class="badge dealer">{t.dealer}</span>}
        {s.ting && <span class="badge ting">叮</span>}
        <span class="num" data-testid="replay-score">{num(s.score)}</span>
      </div>
      <div class="replay-hand" data-testid="replay-hand">
        {s.concealed.map((c, i) => (
          <Tile key={i} code={c} size="meld" />
        ))}
        {s.drawn && (
          <span class="replay-drawn">
            <Tile code={s.drawn} size="meld" />
          </span>
        )}
        {s.melds.map((m, i) => (
          <MeldView key={`m${i}`} meld={m} size="small" />
        ))}
        {s.flowers.map((f, i) => (
          <Tile key={`f${i}`} code={f} size="small" />
        ))}
      </div>
      <div class="replay-river">
        {s.river.map((r, i) => (
          <Tile key={i} code={r.tile} size="small" dim={r.claimed} />
        ))}
      </div>
    </section>
  );
}

/** A move of the viewer: from the step it is at to the one to show (clamped by the viewer).
 * Moves are taken from the step the viewer is at when they run, not the one the buttons and
 * keys were last drawn with: a click and a key between two draws both count. */
export type Move = (from: number) => number;

/** ◀◀: to the start of this hand, or from there to the start of the hand before. */
const back =
  (replay: Replay): Move =>
  (s) => {
    const start = replay.handStarts[replay.handOf(s)] ?? 0;
    return s > start ? start : replay.stepOf(replay.handOf(s) - 1, 0);
  };

/** ▶▶ and PageDown: to the start of the next hand. */
const nextHand =
  (replay: Replay): Move =>
  (s) =>
    replay.stepOf(replay.handOf(s) + 1, 0);

/** The move a key makes: ←/→ a step, PageUp/PageDown or Shift+←/→ a hand; null for others. */
export function keyMove(replay: Replay, key: string, shift: boolean): Move | null {
  if (key === "ArrowRight" && !shift) return (s) => s + 1;
  if (key === "ArrowLeft" && !shift) return (s) => s - 1;
  if (key === "PageDown" || (key === "ArrowRight" && shift)) return nextHand(replay);
  if (key === "PageUp" || (key === "ArrowLeft" && shift)) return (s) => replay.stepOf(replay.handOf(s) - 1, 0);
  return null;
}

function Controls({ replay, step, go }: { replay: Replay; step: number; go: (move: Move) => void }) {
  const hand = replay.handOf(step);
  const start = replay.handStarts[hand] ?? 0;
  const end = (replay.handStarts[hand + 1] ?? replay.length) - 1;
  return (
    <div class="row replay-controls">
      <button type="button" class="small" data-testid="prev-hand" aria-label={t.replayPrevHand} title={t.replayPrevHand} onClick={() => go(back(replay))}>
        ◀◀
      </button>
      <button type="button" class="small" data-testid="prev-step" aria-label={t.replayPrevStep} title={t.replayPrevStep} onClick={() => go((s) => s - 1)}>
        ◀
      </button>
      <button type="button" class="small" data-testid="next-step" aria-label={t.replayNextStep} title={t.replayNextStep} onClick={() => go((s) => s + 1)}>
        ▶
      </button>
      <button type="button" class="small" data-testid="next-hand" aria-label={t.replayNextHand} title={t.replayNextHand} onClick={() => go(nextHand(replay))}>
        ▶▶
      </button>
      <span data-testid="replay-where">
        {t.handOf(hand + 1, replay.handStarts.length)} · {t.stepOf(step - start, end - start)}
      </span>
    </div>
  );
}

function Board({ table, names }: { table: OpenTable; names: string[] }) {
  const said = narrate(table.events, names);
  return (
    <>
      <p class="muted" data-testid="replay-step" aria-live="polite">
        {t.round(t.winds[table.roundWind as keyof typeof t.winds] ?? "", (table.hand ?? 0) + 1)}
        {table.wallLeft >= 0 ? ` · ${t.wall(table.wallLeft)}` : ""}
        {said.length > 0 ? ` · ${said.join(" · ")}` : ""}
      </p>
      <div class="replay-seats">
        {table.seats.map((s) => (
          <SeatPanel key={s.seat} s={s} dealer={s.seat === table.dealer} />
        ))}
      </div>
      {table.result && (
        <section class="card" data-testid="replay-result">
          <ResultBody r={table.result} names={names} ruleset={table.ruleset} />
        </section>
      )}
    </>
  );
}

/** The viewer; `onMove` hears every step it moves to (the page keeps it in its address). */
export function ReplayView({ replay, start, onMove }: { replay: Replay; start: number; onMove?: (step: number) => void }) {
  const [step, setStep] = useState(start);
  const at = useRef(start); // the step shown, or about to be: what the next move starts from
  const go = (move: Move) => {
    const next = Math.max(0, Math.min(move(at.current), replay.length - 1));
    at.current = next;
    setStep(next);
    onMove?.(next);
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && (target.tagName === "INPUT" || target.tagName === "SELECT")) return;
      const move = keyMove(replay, e.key, e.shiftKey);
      if (move === null) return;
      go(move);
      e.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  });
  return (
    <div class="replay" data-testid="replay" data-step={step}>
      <Controls replay={replay} step={step} go={go} />
      <Board table={replay.at(step)} names={replay.names} />
    </div>
  );
}
