// The table in words, shared by the table and its dialogs: a seat's player, a log line.
import { seatName, type LogEntry, type RoomModel } from "../state/reducer";
import { t } from "../i18n";
import { tileName } from "../tiles/art";

/** A seat's player, or "seat N" in the page's language. */
export function seatWords(room: RoomModel, seat: number): string {
  return seatName(room.lobby, seat) ?? t.seat(seat + 1);
}

/** A log entry in the page's language, its tile in words ("Bot 2 pungs 9 characters"), as
 * the replay's log says it. */
export function logLine(room: RoomModel, e: LogEntry): string {
  const who = typeof e.who === "number" ? seatWords(room, e.who) : e.who;
  const say = t.log[e.key] as (who: string, tile: string) => string;
  return say(who, e.tile ? tileName(e.tile) : "");
}
