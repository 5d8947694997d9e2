// Turn signals (docs/web.md "Turn signals"): the countdown on the seat in turn and an away
// seat's grace (the wire's public `clocks`; never a claim window's), the tab's title when it
// is your turn or you may claim, and the optional sounds (ui/sound.ts).
import { useEffect, useRef, useState } from "preact/hooks";
import type { RoomModel } from "../state/reducer";
import { t } from "../i18n";
import { useTick } from "./hooks";
import { secondsLeft } from "../net/clock";
import { play, setSound, soundOn } from "./sound";

/** The public clocks of one seat: "12 s to play", "away: a bot plays in 40 s". */
export function SeatClock({ room, seat, offset }: { room: RoomModel; seat: number; offset: number }) {
  const now = useTick(500);
  const mine = room.clocks.filter((c) => c.seat === seat);
  if (!mine.length) return null;
  return (
    <>
      {mine.map((c) => {
        const secs = secondsLeft(c.at, now, offset);
        const text = c.kind === "turn" ? t.turnClock(secs) : t.botIn(secs);
        return (
          <span key={c.kind} class={`clock clock-${c.kind}`} data-testid="seat-clock" data-kind={c.kind} role="timer" aria-label={text}>
            {c.kind === "turn" ? t.seconds(secs) : text}
          </span>
        );
      })}
    </>
  );
}

/** The sound switch: off by default, remembered; turning it on is the gesture that unlocks audio. */
export function SoundSwitch() {
  const [on, setOn] = useState(soundOn());
  return (
    <button
      type="button"
      class={on ? "small on" : "small"}
      data-testid="sound-toggle"
      aria-pressed={on ? "true" : "false"}
      title={t.soundTitle}
      onClick={() => {
        setSound(!on);
        setOn(!on);
      }}
    >
      {t.sound}
    </button>
  );
}

/** The tab's title and the sounds, from the room as it changes. */
export function useSignals(room: RoomModel, yourTurn: boolean, mayClaim: boolean): void {
  useEffect(() => {
    document.title = yourTurn ? t.titleTurn : mayClaim ? t.titleClaim : t.title;
  }, [yourTurn, mayClaim, t]);
  useEffect(() => () => void (document.title = t.title), []);
  const prompt = yourTurn ? "turn" : mayClaim ? "claim" : null;
  const last = useRef(prompt);
  useEffect(() => {
    if (prompt && prompt !== last.current) play(prompt);
    last.current = prompt;
  }, [prompt, room.seq]);
  const cues = useRef(room.cues);
  useEffect(() => {
    const before = cues.current;
    if (room.cues.win > before.win) play("win");
    else if (room.cues.meld > before.meld) play("meld");
    else if (room.cues.discard > before.discard) play("discard");
    cues.current = room.cues;
  }, [room.cues]);
}
