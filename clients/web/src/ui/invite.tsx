// The page an invite link (/r/<code>) opens for someone with no name yet: "Join <code>",
// the room's rule set, length and timers (list_rooms {code}), a name field and Join (Enter
// works: it is a form). Joining goes straight to the room's seats. Also the room's facts in
// words, shown in every lobby.
import { useState } from "preact/hooks";
import type { Client } from "../net/client";
import type { RoomOptions } from "../protocol/types";
import { RULESET_NAMES } from "./app";

const LENGTHS: Record<string, string> = {
  one_round: "one round (東風戰)",
  two_rounds: "two rounds (東南戰)",
  four_rounds: "four rounds (full game)",
};

/** "one round · turn 30 s · claim 10 s" (a timer of 0: no limit). */
export function optionsWords(o: RoomOptions | null | undefined): string {
  if (!o) return "";
  const length = o.length === "hands" ? `${o.hands ?? 1} hand${o.hands === 1 ? "" : "s"}` : (LENGTHS[o.length ?? ""] ?? o.length ?? "");
  const timer = (label: string, s: number | undefined) => (s ? `${label} ${s} s` : `${label}: no limit`);
  return [length, timer("turn", o.turn_seconds), timer("claim", o.claim_seconds)].join(" · ");
}

export function Invite({ client, code }: { client: Client; code: string }) {
  const s = client.state;
  const [name, setName] = useState(s.name);
  const info = s.invite;
  const join = (e: Event) => {
    e.preventDefault();
    // saving the name says hello again under it; the welcome then joins the link's room
    if (name.trim()) client.setName(name.trim());
  };
  return (
    <main class="home invite" data-testid="invite">
      <h1>
        Join <span data-testid="invite-code">{code.toUpperCase()}</span>
      </h1>
      {info === undefined && <p class="muted">looking the room up…</p>}
      {info === null && (
        <p class="warn" data-testid="invite-missing">
          There is no open room with this code. <a href="/">Start page</a>
        </p>
      )}
      {info && (
        <p class="facts" data-testid="invite-facts">
          {RULESET_NAMES[info.ruleset] ?? info.ruleset} · {optionsWords(info.options)}
          <br />
          <span class="muted">
            {info.seats_free} seat{info.seats_free === 1 ? "" : "s"} free{info.players.length ? ` · ${info.players.join(", ")}` : ""}
          </span>
        </p>
      )}
      <form class="card invite-form" onSubmit={join}>
        <label class="field">
          Your name
          <input data-testid="name" value={name} maxLength={32} autoFocus onInput={(e) => setName(e.currentTarget.value)} onBlur={() => name.trim() && name.trim() !== s.name && client.setName(name.trim())} placeholder="e.g. Alice" />
        </label>
        <button class="primary" type="submit" data-testid="invite-join" disabled={!name.trim()}>
          Join
        </button>
        {client.hasName && s.status !== "online" && <span class="muted"> joining…</span>}
      </form>
    </main>
  );
}
