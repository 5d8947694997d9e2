// The end of the game's score chart: each player's running score over the hands, drawn as
// SVG by hand (no charting library: ~1 KB against uPlot's ~20 KB; docs/web.md). Each player
// has a colour and a dash pattern of its own, named in the legend, so the lines are told
// apart without colour too.
import type { GameSummary } from "../protocol/types";
import { t } from "../i18n";
import { num } from "./format";

/** Each hand's net per seat, every hand played (a drawn hand: all zero), in order. */
export function handRows(s: GameSummary): number[][] {
  const rows: number[][] = [];
  for (let hand = 0; hand < (s.hands_played ?? 0); hand++) rows.push([0, 0, 0, 0]);
  for (const p of s.ledger) {
    while (rows.length <= p.hand) rows.push([0, 0, 0, 0]);
    const row = rows[p.hand]!;
    row[p.payee] = (row[p.payee] ?? 0) + p.amount;
    row[p.payer] = (row[p.payer] ?? 0) - p.amount;
  }
  return rows;
}

/** Each seat's score before the first hand (0) and after every hand. */
export function running(rows: number[][]): number[][] {
  return [0, 1, 2, 3].map((seat) => {
    const out = [0];
    for (const r of rows) out.push((out[out.length - 1] ?? 0) + (r[seat] ?? 0));
    return out;
  });
}

const COLOURS = ["#ffd54f", "#4fc3f7", "#ff8a80", "#b9f6ca"];
const DASHES = ["", "6 3", "2 3", "9 3 2 3"];
const W = 320;
const H = 150;
const PAD = 28;

export function ScoreChart({ summary, names }: { summary: GameSummary; names: string[] }) {
  const lines = running(handRows(summary));
  const n = (lines[0]?.length ?? 1) - 1;
  const all = lines.flat();
  const lo = Math.min(0, ...all);
  const hi = Math.max(0, ...all);
  const span = hi - lo || 1;
  const x = (i: number) => PAD + (n ? (i * (W - PAD - 8)) / n : 0);
  const y = (v: number) => 8 + ((hi - v) * (H - 24)) / span;
  const label = t.chartLabel(names.map((nm, i) => `${nm} ${num(summary.scores[i] ?? 0)}`).join(", "));
  return (
    <figure class="chart" data-testid="score-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label}>
        <line x1={PAD} x2={W - 8} y1={y(0)} y2={y(0)} class="axis" />
        <text x={PAD - 4} y={y(hi) + 4} class="tick" text-anchor="end">
          {num(hi)}
        </text>
        <text x={PAD - 4} y={y(lo) + 4} class="tick" text-anchor="end">
          {num(lo)}
        </text>
        <text x={W - 8} y={H - 2} class="tick" text-anchor="end">
          {t.chartHands(n)}
        </text>
        {lines.map((pts, seat) => (
          <polyline
            key={seat}
            data-seat={seat}
            data-points={pts.join(",")}
            points={pts.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ")}
            fill="none"
            stroke={COLOURS[seat]}
            stroke-width="2"
            stroke-dasharray={DASHES[seat]}
          />
        ))}
      </svg>
      <figcaption class="legend">
        {names.map((nm, seat) => (
          <span key={seat}>
            <svg width="22" height="8" aria-hidden="true">
              <line x1="0" x2="22" y1="4" y2="4" stroke={COLOURS[seat]} stroke-width="2" stroke-dasharray={DASHES[seat]} />
            </svg>{" "}
            {nm}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
