// The archive's pages (docs/archive.md, the HTTP API): a finished game's page `/g/<id>` —
// the standings, every hand's result with its breakdown and payments (the win dialog's
// ResultBody), the replay viewer (ui/replay.tsx) — and "My games" `/my`: the games of the
// player whose token this browser holds. A saved log file opens in the same viewer.
import { useEffect, useMemo, useState } from "preact/hooks";
import type { GameLogDoc } from "../protocol/types";
import { storedToken } from "../net/client";
import { Replay, asGameLog } from "../state/replay";
import { lang, rulesetName, t } from "../i18n";
import { num } from "./format";
import { useLang } from "./hooks";
import { PageHead } from "./pagehead";
import { ResultBody } from "./result";
import { momentOf, momentQuery, ReplayView } from "./replay";

interface PageSeat {
  seat: number;
  name: string;
  bot: boolean;
  you: boolean;
}

/** `GET /api/games/<id>/replay`: the game's page and its `game_log` (what this page reads). */
interface GameData {
  game_id: string;
  ruleset: string;
  finished_ms: number;
  hands_played: number;
  seats: PageSeat[];
  scores: number[];
  ranks: number[];
  game_log: GameLogDoc;
}

/** One line of `GET /api/my/games`. */
interface MyGame {
  game_id: string;
  ruleset: string;
  finished_ms: number;
  hands_played: number;
  players: string[];
  scores: number[];
  you: number | null;
  rank: number | null;
}

type Loaded<T> = { kind: "loading" } | { kind: "ok"; data: T } | { kind: "error"; status: number };

/** A GET of the archive's API with the browser's token (status 0: no answer). */
async function getJson<T>(path: string): Promise<Loaded<T>> {
  const token = storedToken();
  try {
    const r = await fetch(path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    if (!r.ok) return { kind: "error", status: r.status };
    return { kind: "ok", data: (await r.json()) as T };
  } catch {
    return { kind: "error", status: 0 };
  }
}

function useJson<T>(path: string): Loaded<T> {
  const [got, setGot] = useState<Loaded<T>>({ kind: "loading" });
  useEffect(() => {
    void getJson<T>(path).then(setGot);
  }, [path]);
  return got;
}

function when(ms: number): string {
  return new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(ms);
}

function Refused({ status }: { status: number }) {
  const text = status === 403 ? t.notAllowed : status === 404 ? t.gameNotFound : status === 503 ? t.archiveDown : t.loadFailed;
  return (
    <p class="card" role="alert" data-testid="archive-error" data-status={status}>
      {text}
    </p>
  );
}

/** A file input that reads a saved game log (the game over's "Save game log"). */
function LogFile({ onLog }: { onLog: (doc: GameLogDoc) => void }) {
  const [bad, setBad] = useState(false);
  const read = async (files: FileList | null) => {
    const f = files?.[0];
    if (!f) return;
    try {
      onLog(asGameLog(JSON.parse(await f.text())));
      setBad(false);
    } catch {
      setBad(true);
    }
  };
  return (
    <div>
      <label class="field">
        {t.openLog}
        <input type="file" accept=".json,application/json" data-testid="log-file" onChange={(e) => void read(e.currentTarget.files)} />
      </label>
      {bad && (
        <p role="alert" data-testid="log-file-error">
          {t.badLog}
        </p>
      )}
    </div>
  );
}

function Standings({ g }: { g: GameData }) {
  const order = [...g.seats].sort((a, b) => (g.ranks[a.seat] ?? 0) - (g.ranks[b.seat] ?? 0));
  return (
    <ol class="standings" data-testid="standings">
      {order.map((s) => (
        <li key={s.seat} data-seat={s.seat}>
          <span class="rank">{g.ranks[s.seat]}.</span>
          <span class="grow">
            {s.name} {s.you ? t.youMark : ""} {s.bot ? `(${t.bot})` : ""}
          </span>
          <span class="num">{num(g.scores[s.seat] ?? 0)}</span>
        </li>
      ))}
    </ol>
  );
}

function Hands({ replay }: { replay: Replay }) {
  return (
    <div data-testid="hands">
      {replay.results.map((r, i) => (
        <article key={i} class="card hand-card" data-testid="hand" data-hand={i}>
          <div class="row">
            <h2 class="grow">{t.handN(i + 1)}</h2>
            <a class="nav-link" href={`?hand=${i + 1}&step=0`} data-testid="hand-replay">
              {t.replay}
            </a>
          </div>
          <ResultBody r={r} names={replay.names} ruleset={replay.doc.ruleset} />
        </article>
      ))}
    </div>
  );
}

/** The replay of a loaded game (built once per game: the whole log through the reducer);
 * null when its log cannot be replayed. */
function useReplay(got: Loaded<GameData>): Replay | null {
  return useMemo(() => {
    if (got.kind !== "ok") return null;
    try {
      return new Replay(asGameLog(got.data.game_log));
    } catch {
      return null;
    }
  }, [got]);
}

/** `/g/<id>`: a finished game's page; its replay when the address names a moment. */
export function GamePage({ id }: { id: string }) {
  useLang();
  const got = useJson<GameData>(`/api/games/${encodeURIComponent(id)}/replay`);
  const replay = useReplay(got);
  const [open, setOpen] = useState(() => /[?&](hand|step)=/.test(location.search));
  const [file, setFile] = useState<Replay | null>(null);
  const [copied, setCopied] = useState(false);
  if (got.kind !== "ok" || !replay) {
    return (
      <main class="home archive-page">
        <PageHead title={t.title} />
        {got.kind === "loading" ? <p>{t.loading}</p> : <Refused status={got.kind === "error" ? got.status : 0} />}
        <LogFile onLog={(doc) => setFile(new Replay(doc))} />
        {file && <ReplayView replay={file} start={0} />}
      </main>
    );
  }
  const g = got.data;
  const move = (step: number) => history.replaceState(null, "", momentQuery(replay, step));
  const copy = () => void navigator.clipboard?.writeText(location.href).then(() => setCopied(true));
  return (
    <main class="home archive-page" data-testid="game-page" data-game={g.game_id}>
      <PageHead title={`${rulesetName(g.ruleset)} · ${when(g.finished_ms)}`} />
      <Standings g={g} />
      <div class="row">
        <button type="button" class="primary" data-testid="open-replay" onClick={() => setOpen(!open)}>
          {open ? t.closeReplay : t.replay}
        </button>
        {open && (
          <button type="button" data-testid="copy-moment" onClick={copy}>
            {copied ? t.linkCopied : t.copyMoment}
          </button>
        )}
      </div>
      {open ? <ReplayView replay={replay} start={momentOf(location.search, replay)} onMove={move} /> : <Hands replay={replay} />}
    </main>
  );
}

function GameLine({ g }: { g: MyGame }) {
  return (
    <tr data-testid="my-game" data-game={g.game_id}>
      <td>{when(g.finished_ms)}</td>
      <td>{rulesetName(g.ruleset)}</td>
      <td>{g.players.map((p, i) => (i === g.you ? `${p} ${t.youMark}` : p)).join(", ")}</td>
      <td class="num">{g.rank !== null && g.you !== null ? t.placeScore(g.rank, num(g.scores[g.you] ?? 0)) : ""}</td>
      <td>
        <a class="nav-link" href={`/g/${g.game_id}`} data-testid="game-link">
          {t.gameLink}
        </a>{" "}
        <a class="nav-link" href={`/g/${g.game_id}?hand=1&step=0`} data-testid="replay-link">
          {t.replay}
        </a>
      </td>
    </tr>
  );
}

/** `/my`: this browser's player's games, newest first; and a saved log file's replay. */
export function MyGames() {
  useLang();
  const got = useJson<{ games: MyGame[] }>("/api/my/games");
  const [file, setFile] = useState<Replay | null>(null);
  const games = got.kind === "ok" ? got.data.games : [];
  return (
    <main class="home archive-page" data-testid="my-games">
      <PageHead title={t.myGames} />
      {got.kind === "loading" && <p>{t.loading}</p>}
      {got.kind === "error" && got.status !== 401 && <Refused status={got.status} />}
      {got.kind !== "loading" && games.length === 0 && <p data-testid="no-games">{t.noGames}</p>}
      {games.length > 0 && (
        <div class="ledger-box">
          <table class="my-games">
            <thead>
              <tr>
                <th>{t.colDate}</th>
                <th>{t.ruleSet}</th>
                <th>{t.colPlayers}</th>
                <th class="num">{t.colResult}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {games.map((g) => (
                <GameLine key={g.game_id} g={g} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <LogFile onLog={(doc) => setFile(new Replay(doc))} />
      {file && <ReplayView replay={file} start={0} />}
    </main>
  );
}
