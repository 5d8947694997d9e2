// The page an invite link (/r/<code>) opens for someone with no name yet: "Join <code>",
// the room's rule set, length and timers (list_rooms {code}), a name field and Join (Enter
// works: it is a form). Joining goes straight to the room's seats. Also the room's facts in
// words, shown in every lobby.
import { useState } from "preact/hooks";
import type { Client } from "../net/client";
import type { RoomOptions } from "../protocol/types";
import { rulesetName, t } from "../i18n";
import { LangSwitch } from "./lang";

/** "one round · turn 30 s · claim 10 s" (a timer of 0: no limit). */
export function optionsWords(o: RoomOptions | null | undefined): string {
  if (!o) return "";
  const length = o.length === "hands" ? t.nHands(o.hands ?? 1) : o.length ? t.lengths[o.length] : "";
  return [length, t.turnLimit(o.turn_seconds ?? 0), t.claimLimit(o.claim_seconds ?? 0)].join(" · ");
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
      <header class="home-head">
        <h1>
          {t.joinTitle} <span data-testid="invite-code">{code.toUpperCase()}</span>
        </h1>
        <LangSwitch />
      </header>
      {info === undefined && <p class="muted">{t.lookingUp}</p>}
      {info === null && (
        <p class="warn" data-testid="invite-missing">
          {t.noRoom} <a href="/">{t.startPage}</a>
        </p>
      )}
      {info && (
        <p class="facts" data-testid="invite-facts">
          {rulesetName(info.ruleset)} · {optionsWords(info.options)}
          <br />
          <span class="muted">
            {t.seatsFreeLong(info.seats_free)}
            {info.players.length ? ` · ${info.players.join(", ")}` : ""}
          </span>
        </p>
      )}
      <form class="card invite-form" onSubmit={join}>
        <label class="field">
          {t.yourName}
          <input data-testid="name" value={name} maxLength={32} autoFocus onInput={(e) => setName(e.currentTarget.value)} onBlur={() => name.trim() && name.trim() !== s.name && client.setName(name.trim())} placeholder={t.namePlaceholder} />
        </label>
        <button class="primary" type="submit" data-testid="invite-join" disabled={!name.trim()}>
          {t.join}
        </button>
        {client.hasName && s.status !== "online" && <span class="muted"> {t.joining}</span>}
      </form>
    </main>
  );
}
