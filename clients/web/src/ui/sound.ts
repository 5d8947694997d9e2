// Optional sounds (docs/web.md "Turn signals"): off by default, the choice remembered
// (localStorage mahjong.sound), and the AudioContext made only from a user gesture (the
// switch's click, or the first tap after a reload with sounds on), as browsers' autoplay
// rules require. Tones are synthesised: nothing is downloaded.
const KEY = "mahjong.sound";
let ctx: AudioContext | null = null;

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function soundOn(): boolean {
  return storage()?.getItem(KEY) === "on";
}

/** Must be called from a user gesture: makes (or resumes) the audio context. */
function unlock(): void {
  const AC = globalThis.AudioContext;
  if (!AC) return;
  ctx ??= new AC();
  if (ctx.state === "suspended") void ctx.resume();
}

export function setSound(on: boolean): void {
  storage()?.setItem(KEY, on ? "on" : "off");
  if (on) unlock();
}

// with sounds on from an earlier visit, the first gesture on the page unlocks them
if (typeof window !== "undefined") {
  const first = () => {
    if (soundOn()) unlock();
    window.removeEventListener("pointerdown", first);
    window.removeEventListener("keydown", first);
  };
  window.addEventListener("pointerdown", first);
  window.addEventListener("keydown", first);
}

export type Cue = "turn" | "claim" | "discard" | "meld" | "win";
const TONES: Record<Cue, number[]> = {
  turn: [660, 880],
  claim: [880, 660, 880],
  discard: [330],
  meld: [440, 550],
  win: [523, 659, 784, 1047],
};

/** Play a cue when sounds are on and unlocked; a record of what was played for the tests. */
export function play(cue: Cue): void {
  if (!soundOn()) return;
  (globalThis as { mahjongSounds?: Cue[] }).mahjongSounds?.push(cue);
  if (!ctx || ctx.state !== "running") return;
  let at = ctx.currentTime;
  for (const f of TONES[cue]) {
    const o = ctx.createOscillator();
    const g = ctx.createGain();
    o.frequency.value = f;
    g.gain.setValueAtTime(0.12, at);
    g.gain.exponentialRampToValueAtTime(0.001, at + 0.14);
    o.connect(g).connect(ctx.destination);
    o.start(at);
    o.stop(at + 0.15);
    at += 0.09;
  }
}
