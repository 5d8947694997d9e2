// Host controls in the reducer: the pause shows in the lobby (who paused) and the notices
// of the host's controls are narrated; legal actions are what each frame says (none while
// paused).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { EventsMessage, Notice, ServerMessage, SnapshotMessage } from "../src/protocol/types";
import { en } from "../src/i18n/en";
import { applyEvents, fromSnapshot } from "../src/state/reducer";

const DIR = join(__dirname, "fixtures");
const fx = JSON.parse(readFileSync(join(DIR, readdirSync(DIR).filter((f) => f.endsWith(".json")).sort()[0]!), "utf8")) as {
  views: { seat: number | null; frames: { frame: ServerMessage }[] }[];
};
const start = fromSnapshot(fx.views[0]!.frames[0]!.frame as SnapshotMessage);

function frame(seq: number, notice: Notice, paused: boolean): EventsMessage {
  const lobby = { ...start.lobby, paused: paused ? { player: "p_host", name: "Hana", since: 1 } : null };
  return { type: "events", room: start.room, seq, events: [], lobby, notice, legal: [] };
}

describe("host controls", () => {
  it("shows who paused the game and narrates pause and resume", () => {
    const p = applyEvents(start, frame(start.seq + 1, { type: "paused", player: "p_host", name: "Hana" }, true));
    expect(p.lobby.paused?.name).toBe("Hana");
    expect(p.legal).toEqual([]);
    expect(p.log.at(-1)).toEqual({ key: "paused", who: "Hana" });
    expect(en.log.paused("Hana")).toBe("Hana paused the game");
    const r = applyEvents(p, frame(p.seq + 1, { type: "resumed", player: "p_host", name: "Hana", paused_ms: 5000 }, false));
    expect(r.lobby.paused).toBeNull();
    expect(r.log.at(-1)).toEqual({ key: "resumed", who: "Hana" });
  });

  it("narrates a kick and a new host, in your words when it is you", () => {
    const me = start.you.player;
    const k = applyEvents(start, frame(start.seq + 1, { type: "kicked", player: "p_x", name: "Xu", by: "p_host" }, false));
    expect(k.log.at(-1)).toEqual({ key: "removed", who: "Xu" });
    const h = applyEvents(k, frame(k.seq + 1, { type: "host_changed", player: me, name: "Me", by: "p_host" }, false));
    expect(h.log.at(-1)).toEqual({ key: "youHost", who: "" });
  });
});
