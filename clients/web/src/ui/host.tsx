// The host's controls over the room's members and the game: kick a member, hand the host
// role over (the members list), swap two seats (lobby), pause and resume the game (table),
// and the banner everyone sees while a game is paused (docs/protocol.md "Host controls").
import type { Client } from "../net/client";
import type { RoomModel } from "../state/reducer";

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
      <h3>Members</h3>
      <ul>
        {members.map((p) => (
          <li key={p.player} class="row" data-testid={`member-${p.name}`}>
            <span class="grow">{p.name}</span>
            <button type="button" class="small" data-testid={`make-host-${p.name}`} onClick={() => send({ type: "make_host", room: room.room, player: p.player })}>
              Make host
            </button>
            <button
              type="button"
              class="small danger"
              data-testid={`kick-${p.name}`}
              onClick={() => {
                if (confirm(`Remove ${p.name} from the room? They cannot join it again.`)) send({ type: "kick", room: room.room, player: p.player });
              }}
            >
              Kick
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
      aria-label={`swap seat ${seat + 1} with`}
      onChange={(e) => {
        const b = Number(e.currentTarget.value);
        e.currentTarget.value = "";
        if (b >= 0) send({ type: "swap_seats", room: room.room, a: seat, b });
      }}
    >
      <option value="">Swap…</option>
      {others.map((i) => (
        <option key={i} value={i}>
          with {["East", "South", "West", "North"][i]} ({room.lobby.seats[i]?.name ?? "free"})
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
      {paused ? "Resume" : "Pause"}
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
      Paused by {paused.name}
      {host ? " — press Resume to go on" : " — the host resumes the game"}
    </div>
  );
}
