// The hints panel: asks the server for hints (docs/protocol.md "Hints") after each change of
// the room while it is open, and shows how far the hand is from ready, the best discards and
// the waits (with unseen copies and whether a win reaches the rule set's minimum).
import { useEffect, useState } from "preact/hooks";
import { errorText, hintNote, t } from "../i18n";
import type { Client } from "../net/client";
import type { ServerHints } from "../protocol/generated";
import type { RoomModel } from "../state/reducer";
import { Tile } from "./tile";

export function shantenWords(s: number | null | undefined): string {
  if (s === null || s === undefined) return t.noHand;
  if (s < 0) return t.winningHand;
  if (s === 0) return t.readyHand;
  return t.fromReady(s);
}

export function HintsPanel({ client, room }: { client: Client; room: RoomModel }) {
  const [hints, setHints] = useState<ServerHints | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void client.request({ type: "hints", room: room.room }).then((r) => {
      if (!live) return;
      if (r.type === "hints") {
        setHints(r);
        setError(null);
      } else if (r.type === "error") setError(errorText(r.code, r.message));
    });
    return () => {
      live = false;
    };
  }, [room.room, room.seq]);
  if (error) return <aside class="hints" data-testid="hints">{error}</aside>;
  if (!hints) return <aside class="hints" data-testid="hints">…</aside>;
  const mark = (ok: boolean) => (ok ? "✓" : "✗");
  return (
    <aside class="hints" data-testid="hints">
      <div>
        <strong>{shantenWords(hints.shanten)}</strong>
        {hints.minimum > 0 && <span class="muted">{t.minimum(hints.minimum)}</span>}
      </div>
      {hints.note && <div class="warn">{hintNote(hints.note_code, hints.minimum, hints.note)}</div>}
      {hints.discards.length > 0 && (
        <div class="hint-row">
          {t.discardHint}{" "}
          {hints.discards.slice(0, 4).map((d, i) => (
            <span key={i} class="hint-item" title={t.usefulUnseen(d.useful)}>
              <Tile code={d.tile} size="small" /> {d.useful}
            </span>
          ))}
          <span class="muted legend">{t.usefulLegend}</span>
        </div>
      )}
      {hints.waits.length > 0 && (
        <div class="hint-row">
          {t.waitsHint}{" "}
          {hints.waits.map((w, i) => (
            <span key={i} class="hint-item" title={t.waitTitle(mark(w.by_discard), mark(w.by_self_draw))}>
              <Tile code={w.tile} size="small" /> {t.unseenLeft(w.unseen)}
              {hints.minimum > 0 && (
                <small>
                  {" "}
                  {mark(w.by_discard)}/{mark(w.by_self_draw)}
                </small>
              )}
            </span>
          ))}
        </div>
      )}
    </aside>
  );
}

type ToggleName = "auto_win" | "no_claims" | "auto_discard";
const TOGGLES: ToggleName[] = ["auto_win", "no_claims", "auto_discard"];

/** Your seat's play settings (docs/protocol.md "toggles"): kept by the server per seat. */
export function TogglesPanel({ client, room }: { client: Client; room: RoomModel }) {
  // the room's copy (kept by the client once the server acks a change), not the panel's own:
  // the panel shows the settings in force each time it opens
  const on = { auto_win: false, no_claims: false, auto_discard: false, ...(room.you.toggles ?? {}) };
  const flip = (name: ToggleName) => void client.setToggles(room.room, { [name]: !on[name] });
  return (
    <aside class="hints toggles" data-testid="toggles">
      {TOGGLES.map((name) => (
        <label key={name} class="hint-row">
          <input type="checkbox" checked={on[name]} data-testid={`toggle-${name}`} onChange={() => flip(name)} /> {t.toggles[name]}
        </label>
      ))}
    </aside>
  );
}
