import { useState } from "preact/hooks";
import { rulesetName, t } from "../i18n";
import type { Client } from "../net/client";
import type { RoomOptions } from "../protocol/types";
import type { RoomModel } from "../state/reducer";
import { useClient, useLang, useTick } from "./hooks";
import { Invite } from "./invite";
import { PageHead } from "./pagehead";
import { RoomLobby } from "./lobby";
import { TableView } from "./table";

export function App({ client }: { client: Client }) {
  const s = useClient(client);
  useLang();
  const room = s.current ? s.rooms[s.current] : undefined;
  // an invite link's page until its room is joined (with a name known, while joining)
  const invite = !room && client.inviteCode ? client.inviteCode : null;
  // at the table the page is the screen's height: the banners take room from the felt,
  // never push the hand below the fold
  const atTable = !!room && room.lobby.status !== "lobby" && !!room.game;
  return (
    <div class={`app ${atTable ? "at-table" : ""}`} data-status={s.status}>
      <Banner client={client} />
      <NewVersion client={client} />
      {room ? <Room client={client} room={room} /> : invite ? <Invite client={client} code={invite} /> : <Home client={client} />}
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
  let text = t.connecting;
  if (s.status === "reconnecting") {
    const secs = Math.max(0, Math.ceil(((s.retryAt ?? now) - now) / 1000));
    // the installed app opened without a network: the shell says so and keeps trying
    if (typeof navigator !== "undefined" && navigator.onLine === false) {
      return (
        <div class="banner" data-testid="banner" data-offline="true" role="status">
          {t.offline(secs)}{" "}
          <button type="button" data-testid="retry-now" onClick={() => client.retryNow()}>
            {t.retryNow}
          </button>
        </div>
      );
    }
    text = t.reconnecting;
  }
  if (s.status === "restarting") {
    const secs = Math.max(0, Math.ceil(((s.retryAt ?? now) - now) / 1000));
    text = t.restarting(secs);
  }
  if (s.status === "replaced") {
    return (
      <div class="banner" data-testid="banner">
        {t.replaced}{" "}
        <button type="button" onClick={() => client.takeOver()}>
          {t.playHere}
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

/** The server serves another build of this client (welcome.build): offer a reload. */
function NewVersion({ client }: { client: Client }) {
  if (!client.newVersion) return null;
  return (
    <div class="banner banner-info" data-testid="new-version">
      {t.newVersion}{" "}
      <button type="button" data-testid="reload" onClick={() => location.reload()}>
        {t.reload}
      </button>
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
      <PageHead title={t.title} home />
      <label class="field">
        {t.yourName}
        <input
          data-testid="name"
          value={name}
          maxLength={32}
          onInput={(e) => setName(e.currentTarget.value)}
          onBlur={saveName}
          onKeyDown={(e) => e.key === "Enter" && saveName()}
          placeholder={t.namePlaceholder}
        />
      </label>
      <div class="cards">
        <form class="card" onSubmit={create}>
          <h2>{t.newRoom}</h2>
          <label class="field">
            {t.ruleSet}
            <select data-testid="ruleset" value={rs} onChange={(e) => setRuleset(e.currentTarget.value)}>
              {s.rulesets.map((r) => (
                <option key={r} value={r}>
                  {rulesetName(r)}
                </option>
              ))}
            </select>
          </label>
          <label class="field">
            {t.length}
            <select data-testid="length" value={length} onChange={(e) => setLength(e.currentTarget.value as typeof length)}>
              {(["one_round", "two_rounds", "four_rounds", "hands"] as const).map((v) => (
                <option key={v} value={v}>
                  {t.lengths[v]}
                </option>
              ))}
            </select>
          </label>
          {length === "hands" && (
            <label class="field">
              {t.hands}
              <input data-testid="hands" type="number" min={1} max={64} value={hands} onInput={(e) => setHands(Number(e.currentTarget.value))} />
            </label>
          )}
          <div class="row">
            <label class="field">
              {t.turnTimer}
              <input data-testid="turn-seconds" type="number" min={0} max={600} value={turn} onInput={(e) => setTurn(Number(e.currentTarget.value))} />
            </label>
            <label class="field">
              {t.claimTimer}
              <input data-testid="claim-seconds" type="number" min={0} max={120} value={claim} onInput={(e) => setClaim(Number(e.currentTarget.value))} />
            </label>
          </div>
          <div class="row">
            <label class="field">
              {t.botDelay}
              <input data-testid="bot-delay" type="number" min={0} max={10000} value={botMs} onInput={(e) => setBotMs(Number(e.currentTarget.value))} />
            </label>
            <label class="field">
              {t.handPause}
              <input data-testid="hand-pause" type="number" min={0} max={60} value={pauseS} onInput={(e) => setPauseS(Number(e.currentTarget.value))} />
            </label>
          </div>
          <label class="check">
            <input type="checkbox" checked={pub} onChange={(e) => setPub(e.currentTarget.checked)} /> {t.listedPublicly}
          </label>
          <button class="primary" type="submit" data-testid="create" disabled={!named || s.status !== "online"}>
            {t.createRoom}
          </button>
        </form>
        <form class="card" onSubmit={join}>
          <h2>{t.joinRoom}</h2>
          <label class="field">
            {t.roomCode}
            <input data-testid="code" value={code} maxLength={16} onInput={(e) => setCode(e.currentTarget.value)} placeholder="K7QX2M" autoCapitalize="characters" />
          </label>
          <button class="primary" type="submit" data-testid="join" disabled={!named || !code.trim() || s.status !== "online"}>
            {t.join}
          </button>
          <h2>{t.publicRooms}</h2>
          <button type="button" onClick={() => client.listRooms()}>
            {t.refresh}
          </button>
          <ul class="room-list">
            {s.roomList.map((r) => (
              <li key={r.id}>
                <button type="button" onClick={() => void client.join(r.code)} disabled={!named}>
                  {r.code} · {rulesetName(r.ruleset)} · {t.roomStatus[r.status]} · {t.seatsFree(r.seats_free)} · {r.players.join(", ")}
                </button>
              </li>
            ))}
          </ul>
        </form>
      </div>
      {!named && <p class="hint">{t.enterName}</p>}
    </main>
  );
}
