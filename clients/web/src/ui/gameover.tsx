// The end of the game: standings with ranks, the score chart (ui/chart.tsx), every hand in
// the ledger (draws too), Rematch,
// Save game log (`get_log` as JSON) and Leave.
import type { Client } from "../net/client";
import type { RoomModel } from "../state/reducer";
import { t } from "../i18n";
import { num, signed } from "./format";
import { LangSwitch } from "./lang";
import { handRows, ScoreChart } from "./chart";
import { seatWords } from "./seat";

export function GameOver({ client, room }: { client: Client; room: RoomModel }) {
  const s = room.summary!;
  const names = [0, 1, 2, 3].map((i) => seatWords(room, i));
  const standings = [0, 1, 2, 3].sort((a, b) => (s.scores[b] ?? 0) - (s.scores[a] ?? 0));
  // equal scores share a rank (1, 2, 2, 4)
  const rank = (i: number) => 1 + standings.filter((j) => (s.scores[j] ?? 0) > (s.scores[i] ?? 0)).length;
  // every hand played has a row, a drawn hand (no payments) too
  const rows = handRows(s);
  const saveLog = async () => {
    const r = await client.request({ type: "get_log", room: room.room });
    if (r.type !== "game_log") return;
    const blob = new Blob([JSON.stringify(r.log, null, 1)], { type: "application/json" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `mahjong-${room.lobby.code}-game${room.lobby.game_no}.json`;
    a.click();
  };
  return (
    <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="game-over-heading" data-testid="game-over">
      <div class="dialog">
        <div class="row">
          <h2 class="grow" id="game-over-heading">
            {t.gameOver}
          </h2>
          <LangSwitch />
        </div>
        <ol class="standings" data-testid="standings">
          {standings.map((i) => (
            <li key={i}>
              <span class="rank">{rank(i)}.</span> <span class="grow">{names[i]}</span> <span class="num">{num(s.scores[i] ?? 0)}</span>
            </li>
          ))}
        </ol>
        <ScoreChart summary={s} names={names} />
        <div class="ledger-box">
        <table class="ledger" data-testid="ledger">
          <thead>
            <tr>
              <th>{t.handCol}</th>
              {names.map((n, i) => (
                <th key={i}>{n}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, hand) => (
              <tr key={hand}>
                <td>{hand + 1}</td>
                {row.map((v, i) => (
                  <td key={i} class={`num ${v > 0 ? "plus" : v < 0 ? "minus" : ""}`}>
                    {signed(v, "·")}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        </div>
        <div class="row">
          <button type="button" class="primary" data-testid="rematch" onClick={() => void client.request({ type: "rematch", room: room.room })}>
            {t.rematch}
          </button>
          <button type="button" data-testid="save-log" onClick={() => void saveLog()}>
            {t.saveLog}
          </button>
          {s.game_id && (
            <a class="nav-link" href={`/g/${s.game_id}`} target="_blank" rel="noopener" data-testid="game-page-link">
              {t.gameLink}
            </a>
          )}
          <button type="button" data-testid="leave-end" onClick={() => void client.request({ type: "leave_room", room: room.room })}>
            {t.leave}
          </button>
        </div>
      </div>
    </div>
  );
}
