import { useState } from "preact/hooks";
import type { Client } from "../net/client";
import type { RoomOptions } from "../protocol/types";
import type { RoomModel } from "../state/reducer";
import { useClient, useLang, useTick } from "./hooks";
import { RoomLobby } from "./lobby";
import { TableView } from "./table";

export const RULESET_NAMES: Record<string, string> = {
  mcr: "MCR (國標)",
  "hk-tw16": "HK/Taiwan 16 tiles (港台十六張)",
  "tw16-tai": "Taiwan 16 tiles, tai (台灣十六張)",
  "zung-jung": "Zung Jung (中庸)",
  "zung-jung-v33": "Zung Jung v3.3",
};

export function App({ client }: { client: Client }) {
  const s = useClient(client);
  useLang();
  const room = s.current ? s.rooms[s.current] : undefined;
  return (
    <div class="app" data-status={s.status}>
      <Banner client={client} />
      {room ? <Room client={client} room={room} /> : <Home client={client} />}
      <div class="toasts" role="status" aria-live="polite">
        {s.toasts.map((t) => (
          <div key={t.id} class={`toast toast-${t.kind}`} data-testid="toast">
            {t.text}
          </div>
        ))}
      </div>
    </div>
  );
}

function Banner({ client }: { client: Client }) {
  const s = client.state;
  const now = useTick(500);
  if (s.status === "online") return null;
  let text = "connecting…";
  if (s.status === "reconnecting") text = "reconnecting…";
  if (s.status === "restarting") {
    const secs = Math.max(0, Math.ceil(((s.retryAt ?? now) - now) / 1000));
    text = `the server is restarting, back in ${secs} s`;
  }
  if (s.status === "replaced") {
    return (
      <div class="banner" data-testid="banner">
        This game is open in another tab or device.{" "}
        <button type="button" onClick={() => client.takeOver()}>
          Play here
        </button>
      </div>
    );
  }
  return (
    <div class="banner" data-testid="banner">
      {text}
    </div>
  );
}

function Room({ client, room }: { client: Client; room: RoomModel }) {
  if (room.lobby.status === "lobby" || !room.game) return <RoomLobby client={client} room={room} />;
  return <TableView client={client} room={room} />;
}

function Home({ client }: { client: Client }) {
  const s = client.state;
  const [name, setName] = useState(s.name);
  const [code, setCode] = useState("");
  const [ruleset, setRuleset] = useState("");
  const [length, setLength] = useState<NonNullable<RoomOptions["length"]>>("one_round");
  const [hands, setHands] = useState(4);
  const [turn, setTurn] = useState(30);
  const [claim, setClaim] = useState(10);
  const [pub, setPub] = useState(false);
  const [botMs, setBotMs] = useState(600);
  const [pauseS, setPauseS] = useState(3);
  const rs = ruleset || s.rulesets[0] || "";
  const named = name.trim().length > 0;
  const saveName = () => {
    if (name.trim() && name !== s.name) client.setName(name.trim());
  };
  const create = (e: Event) => {
    e.preventDefault();
    saveName();
    const options: RoomOptions = {
      length,
      turn_seconds: turn,
      claim_seconds: claim,
      public: pub,
      bot_delay_ms: botMs,
      hand_pause_ms: Math.round(pauseS * 1000),
    };
    if (length === "hands") options.hands = hands;
    void client.create(rs, options);
  };
  const join = (e: Event) => {
    e.preventDefault();
    saveName();
    if (code.trim()) void client.join(code.trim());
  };
  return (
    <main class="home">
      <h1>Mahjong table</h1>
      <label class="field">
        Your name
        <input data-testid="name" value={name} maxLength={32} onInput={(e) => setName(e.currentTarget.value)} onBlur={saveName} placeholder="e.g. Alice" />
      </label>
      <div class="cards">
        <form class="card" onSubmit={create}>
          <h2>New room</h2>
          <label class="field">
            Rule set
            <select data-testid="ruleset" value={rs} onChange={(e) => setRuleset(e.currentTarget.value)}>
              {s.rulesets.map((r) => (
                <option key={r} value={r}>
                  {RULESET_NAMES[r] ?? r}
                </option>
              ))}
            </select>
          </label>
          <label class="field">
            Length
            <select data-testid="length" value={length} onChange={(e) => setLength(e.currentTarget.value as typeof length)}>
              <option value="one_round">one round (東風戰)</option>
              <option value="two_rounds">two rounds (東南戰)</option>
              <option value="four_rounds">four rounds (full game)</option>
              <option value="hands">a number of hands</option>
            </select>
          </label>
          {length === "hands" && (
            <label class="field">
              Hands
              <input data-testid="hands" type="number" min={1} max={64} value={hands} onInput={(e) => setHands(Number(e.currentTarget.value))} />
            </label>
          )}
          <div class="row">
            <label class="field">
              Turn timer (s)
              <input data-testid="turn-seconds" type="number" min={0} max={600} value={turn} onInput={(e) => setTurn(Number(e.currentTarget.value))} />
            </label>
            <label class="field">
              Claim timer (s)
              <input data-testid="claim-seconds" type="number" min={0} max={120} value={claim} onInput={(e) => setClaim(Number(e.currentTarget.value))} />
            </label>
          </div>
          <div class="row">
            <label class="field">
              Bot think time (ms)
              <input data-testid="bot-delay" type="number" min={0} max={10000} value={botMs} onInput={(e) => setBotMs(Number(e.currentTarget.value))} />
            </label>
            <label class="field">
              Pause between hands (s)
              <input data-testid="hand-pause" type="number" min={0} max={60} value={pauseS} onInput={(e) => setPauseS(Number(e.currentTarget.value))} />
            </label>
          </div>
          <label class="check">
            <input type="checkbox" checked={pub} onChange={(e) => setPub(e.currentTarget.checked)} /> listed publicly
          </label>
          <button class="primary" type="submit" data-testid="create" disabled={!named || s.status !== "online"}>
            Create room
          </button>
        </form>
        <form class="card" onSubmit={join}>
          <h2>Join a room</h2>
          <label class="field">
            Room code
            <input data-testid="code" value={code} maxLength={16} onInput={(e) => setCode(e.currentTarget.value)} placeholder="K7QX2M" autoCapitalize="characters" />
          </label>
          <button class="primary" type="submit" data-testid="join" disabled={!named || !code.trim() || s.status !== "online"}>
            Join
          </button>
          <h2>Public rooms</h2>
          <button type="button" onClick={() => client.listRooms()}>
            Refresh
          </button>
          <ul class="room-list">
            {s.roomList.map((r) => (
              <li key={r.id}>
                <button type="button" onClick={() => void client.join(r.code)} disabled={!named}>
                  {r.code} · {RULESET_NAMES[r.ruleset] ?? r.ruleset} · {r.status} · {r.seats_free} free · {r.players.join(", ")}
                </button>
              </li>
            ))}
          </ul>
        </form>
      </div>
      {!named && <p class="hint">Enter a name to create or join a room.</p>}
    </main>
  );
}
