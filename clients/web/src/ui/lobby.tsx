import { useState } from "preact/hooks";
import type { Client } from "../net/client";
import type { RoomModel } from "../state/reducer";
import { rulesetName, t } from "../i18n";
import { MembersPanel, SwapSeat } from "./host";
import { optionsWords } from "./invite";
import { LangSwitch } from "./lang";

const WINDS = ["we", "ws", "ww", "wn"] as const;

export function RoomLobby({ client, room }: { client: Client; room: RoomModel }) {
  const l = room.lobby;
  const me = client.state.player;
  const host = l.host === me;
  const mySeat = room.you.seat;
  const link = `${location.origin}/r/${l.code}`;
  const send = (m: Parameters<Client["request"]>[0]) => void client.request(m);
  const full = l.seats.every((s) => s !== null);
  const allReady = l.seats.every((s) => s && (s.bot || s.ready));
  return (
    <main class="lobby">
      <header class="bar">
        <strong data-testid="room-code">{l.code}</strong> · {rulesetName(l.ruleset)}
        <span class="grow" />
        <a class="nav-link" href="/my" data-testid="my-games-link">
          {t.myGames}
        </a>
        <LangSwitch />
        <button type="button" data-testid="leave" onClick={() => send({ type: "leave_room", room: room.room })}>
          {t.leave}
        </button>
      </header>
      <section class="card">
        <p class="facts" data-testid="room-facts">
          {optionsWords(l.options)}
        </p>
        <p>
          {t.invite}{" "}
          <a href={link} data-testid="room-link">
            {link}
          </a>{" "}
          <button type="button" onClick={() => void navigator.clipboard?.writeText(link).then(() => client.toast(t.linkCopied))}>
            {t.copy}
          </button>
        </p>
        <ol class="seats">
          {l.seats.map((s, i) => (
            <li key={i} class="seat-row" data-testid={`seat-${i}`}>
              <span class="wind">{t.winds[WINDS[i]!]}</span>
              {s ? (
                <>
                  <span class="who">
                    {s.name} {s.bot && <span class="badge">{t.bot}</span>} {s.player === l.host && t.hostMark} {s.away && t.awayMark}
                  </span>
                  <span class={s.ready || s.bot ? "ok" : "muted"}>{s.bot ? t.bot : s.ready ? t.isReady : t.notReady}</span>
                  {s.bot && host && (
                    <button type="button" data-testid={`remove-bot-${i}`} onClick={() => send({ type: "remove_bot", room: room.room, seat: i })}>
                      {t.removeBot}
                    </button>
                  )}
                  {host && <SwapSeat client={client} room={room} seat={i} />}
                </>
              ) : (
                <>
                  <span class="who muted">{t.freeSeat}</span>
                  <button type="button" data-testid={`sit-${i}`} onClick={() => send({ type: "sit", room: room.room, seat: i })}>
                    {mySeat === null ? t.sitHere : t.moveHere}
                  </button>
                  {host && (
                    <button type="button" data-testid={`add-bot-${i}`} onClick={() => send({ type: "add_bot", room: room.room, seat: i })}>
                      {t.addBot}
                    </button>
                  )}
                </>
              )}
            </li>
          ))}
        </ol>
        <div class="row">
          {mySeat !== null && (
            <>
              <button
                type="button"
                class="primary"
                data-testid="ready"
                onClick={() => send({ type: "ready", room: room.room, ready: !l.seats[mySeat]?.ready })}
              >
                {l.seats[mySeat]?.ready ? t.unready : t.ready}
              </button>
              <button type="button" data-testid="stand" onClick={() => send({ type: "stand", room: room.room })}>
                {t.standUp}
              </button>
            </>
          )}
          {host && (
            <button type="button" class="primary" data-testid="start" disabled={!full || !allReady} onClick={() => send({ type: "start_game", room: room.room })}>
              {t.startGame}
            </button>
          )}
        </div>
        {!host && (
          <p class="muted" data-testid="waiting-host">
            {mySeat === null ? t.takeASeat : full && allReady ? t.waitingHostReady(seatHost(l)) : t.waitingHost(seatHost(l))}
          </p>
        )}
        {l.spectators.length > 0 && <p class="muted">{t.watchingList(l.spectators.map((s) => s.name).join(", "))}</p>}
      </section>
      <MembersPanel client={client} room={room} />
      <Chat client={client} room={room} />
    </main>
  );
}

/** The host's name as the lobby shows it. */
function seatHost(l: RoomModel["lobby"]): string {
  const seated = l.seats.find((s) => s && s.player === l.host);
  return seated?.name ?? l.spectators.find((s) => s.player === l.host)?.name ?? t.hostWord;
}

export function Chat({ client, room }: { client: Client; room: RoomModel }) {
  const [text, setText] = useState("");
  const submit = (e: Event) => {
    e.preventDefault();
    if (!text.trim()) return;
    void client.request({ type: "chat", room: room.room, text: text.trim().slice(0, 300) });
    setText("");
  };
  return (
    <section class="chat" data-testid="chat">
      <ul>
        {room.chat.slice(-30).map((c, i) => (
          <li key={i}>
            <b>{c.name}</b>: {c.text}
          </li>
        ))}
      </ul>
      <form onSubmit={submit} class="row">
        <input data-testid="chat-input" value={text} maxLength={300} onInput={(e) => setText(e.currentTarget.value)} placeholder={t.saySomething} />
        <button type="submit">{t.send}</button>
      </form>
    </section>
  );
}
