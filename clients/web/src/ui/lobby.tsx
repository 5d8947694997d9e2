import { useState } from "preact/hooks";
import type { Client } from "../net/client";
import type { RoomModel } from "../state/reducer";
import { RULESET_NAMES } from "./app";
import { MembersPanel, SwapSeat } from "./host";
import { optionsWords } from "./invite";

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
        <strong data-testid="room-code">{l.code}</strong> · {RULESET_NAMES[l.ruleset] ?? l.ruleset}
        <span class="grow" />
        <button type="button" data-testid="leave" onClick={() => send({ type: "leave_room", room: room.room })}>
          Leave
        </button>
      </header>
      <section class="card">
        <p class="facts" data-testid="room-facts">
          {optionsWords(l.options)}
        </p>
        <p>
          Invite friends with this link:{" "}
          <a href={link} data-testid="room-link">
            {link}
          </a>{" "}
          <button type="button" onClick={() => void navigator.clipboard?.writeText(link).then(() => client.toast("link copied"))}>
            Copy
          </button>
        </p>
        <ol class="seats">
          {l.seats.map((s, i) => (
            <li key={i} class="seat-row" data-testid={`seat-${i}`}>
              <span class="wind">{["East", "South", "West", "North"][i]}</span>
              {s ? (
                <>
                  <span class="who">
                    {s.name} {s.bot && <span class="badge">bot</span>} {s.player === l.host && "(host)"} {s.away && "(away)"}
                  </span>
                  <span class={s.ready || s.bot ? "ok" : "muted"}>{s.bot ? "bot" : s.ready ? "✓ ready" : "not ready"}</span>
                  {s.bot && host && (
                    <button type="button" data-testid={`remove-bot-${i}`} onClick={() => send({ type: "remove_bot", room: room.room, seat: i })}>
                      Remove bot
                    </button>
                  )}
                  {host && <SwapSeat client={client} room={room} seat={i} />}
                </>
              ) : (
                <>
                  <span class="who muted">free</span>
                  <button type="button" data-testid={`sit-${i}`} onClick={() => send({ type: "sit", room: room.room, seat: i })}>
                    {mySeat === null ? "Sit here" : "Move here"}
                  </button>
                  {host && (
                    <button type="button" data-testid={`add-bot-${i}`} onClick={() => send({ type: "add_bot", room: room.room, seat: i })}>
                      Add bot
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
                {l.seats[mySeat]?.ready ? "Not ready" : "Ready"}
              </button>
              <button type="button" data-testid="stand" onClick={() => send({ type: "stand", room: room.room })}>
                Stand up
              </button>
            </>
          )}
          {host && (
            <button type="button" class="primary" data-testid="start" disabled={!full || !allReady} onClick={() => send({ type: "start_game", room: room.room })}>
              Start game
            </button>
          )}
        </div>
        {!host && (
          <p class="muted" data-testid="waiting-host">
            {mySeat === null
              ? "Take a free seat to play, or stay and watch."
              : full && allReady
                ? `Everyone is ready: waiting for the host (${seatHost(l)}) to start the game.`
                : `Waiting for the host (${seatHost(l)}) to start the game once every seat is taken and ready.`}
          </p>
        )}
        {l.spectators.length > 0 && <p class="muted">Watching: {l.spectators.map((s) => s.name).join(", ")}</p>}
      </section>
      <MembersPanel client={client} room={room} />
      <Chat client={client} room={room} />
    </main>
  );
}

/** The host's name as the lobby shows it. */
function seatHost(l: RoomModel["lobby"]): string {
  const seated = l.seats.find((s) => s && s.player === l.host);
  return seated?.name ?? l.spectators.find((s) => s.player === l.host)?.name ?? "host";
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
        <input data-testid="chat-input" value={text} maxLength={300} onInput={(e) => setText(e.currentTarget.value)} placeholder="say something" />
        <button type="submit">Send</button>
      </form>
    </section>
  );
}
