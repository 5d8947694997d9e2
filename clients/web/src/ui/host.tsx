// The host's controls over the room's members and the game: kick a member, hand the host
// role over (the members list), swap two seats (lobby), pause and resume the game (table),
// and the banner everyone sees while a game is paused (docs/protocol.md "Host controls").
import { t } from "../i18n";
import type { Client } from "../net/client";
import type { RoomModel } from "../state/reducer";

const WINDS = ["we", "ws", "ww", "wn"] as const;

type Send = (m: Parameters<Client["request"]>[0]) => void;

function sender(client: Client): Send {
  return (m) => void client.request(m);
}

/** Every member but you, each with Kick and Make host buttons (host only). */
export function MembersPanel({ client, room }: { client: Client; room: RoomModel }) {
  const l = room.lobby;
  const me = client.state.player;
  if (l.host !== me) return null;
  const send = sender(client);
  const seated = l.seats.flatMap((s) => (s && s.player && !s.bot ? [{ player: s.player, name: s.name }] : []));
  const members = [...seated, ...l.spectators].filter((p) => p.player !== me);
  if (members.length === 0) return null;
  return (
    <section class="card members" data-testid="members">
      <h3>{t.members}</h3>
      <ul>
        {members.map((p) => (
          <li key={p.player} class="row" data-testid={`member-${p.name}`}>
            <span class="grow">{p.name}</span>
            <button type="button" class="small" data-testid={`make-host-${p.name}`} onClick={() => send({ type: "make_host", room: room.room, player: p.player })}>
              {t.makeHost}
            </button>
            <button
              type="button"
              class="small danger"
              data-testid={`kick-${p.name}`}
              onClick={() => {
                if (confirm(t.kickConfirm(p.name))) send({ type: "kick", room: room.room, player: p.player });
              }}
            >
              {t.kick}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The host's "swap with seat …" menu for a seat in the lobby. */
export function SwapSeat({ client, room, seat }: { client: Client; room: RoomModel; seat: number }) {
  const send = sender(client);
  const others = [0, 1, 2, 3].filter((i) => i !== seat && (room.lobby.seats[seat] !== null || room.lobby.seats[i] !== null));
  if (others.length === 0) return null;
  return (
    <select
      class="small"
      data-testid={`swap-${seat}`}
      value=""
      aria-label={t.swapLabel(seat + 1)}
      onChange={(e) => {
        const b = Number(e.currentTarget.value);
        e.currentTarget.value = "";
        if (b >= 0) send({ type: "swap_seats", room: room.room, a: seat, b });
      }}
    >
      <option value="">{t.swap}</option>
      {others.map((i) => (
        <option key={i} value={i}>
          {t.swapWith(t.winds[WINDS[i]!], room.lobby.seats[i]?.name ?? t.freeSeat)}
        </option>
      ))}
    </select>
  );
}

/** The host's Pause / Resume button in the table's bar. */
export function PauseButton({ client, room }: { client: Client; room: RoomModel }) {
  if (room.lobby.host !== client.state.player) return null;
  const send = sender(client);
  const paused = room.lobby.paused ?? null;
  return (
    <button
      type="button"
      class="small"
      data-testid="pause"
      onClick={() => send({ type: paused ? "resume_game" : "pause_game", room: room.room })}
    >
      {paused ? t.resume : t.pause}
    </button>
  );
}

/** Shown to everyone while the game is paused: who paused it. */
export function PausedBanner({ client, room }: { client: Client; room: RoomModel }) {
  const paused = room.lobby.paused ?? null;
  if (!paused) return null;
  const host = room.lobby.host === client.state.player;
  return (
    <div class="banner" data-testid="paused-banner">
      {t.pausedBy(paused.name)}
      {host ? t.pressResume : t.hostResumes}
    </div>
  );
}
