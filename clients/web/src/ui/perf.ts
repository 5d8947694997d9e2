// Performance marks for the benchmark (benchmarks/bench_web.py, docs/web.md "Measured"):
// `mj:frame→screen` from an events frame arriving to the next paint after it, and
// `mj:discard→river` from a click on Discard to the paint that shows the tile in your river.
// User Timing measures, read with performance.getEntriesByName; at most LIMIT of each kept.
const LIMIT = 2000;

/** Call `fn` after the next paint (a task after the next animation frame). */
function afterPaint(fn: () => void): void {
  if (typeof requestAnimationFrame === "undefined") return;
  requestAnimationFrame(() => setTimeout(fn, 0));
}

/** Measure `name` from `start` (performance.now()) to the next paint. */
export function measureToPaint(name: string, start: number, detail?: unknown): void {
  if (typeof performance === "undefined" || !performance.measure) return;
  afterPaint(() => {
    if (performance.getEntriesByName(name).length >= LIMIT) performance.clearMeasures(name);
    performance.measure(name, { start, end: performance.now(), detail });
  });
}

let discardAt: number | null = null;

/** A click on Discard (or a second tap on the selected tile). */
export function discardClicked(): void {
  discardAt = typeof performance === "undefined" ? null : performance.now();
}

/** The river of your seat grew: the discard clicked is on its way to the screen. */
export function riverGrew(): void {
  if (discardAt === null) return;
  measureToPaint("mj:discard→river", discardAt);
  discardAt = null;
}
