// A seat's player in words, shared by the table and its dialogs.
import { seatName, type RoomModel } from "../state/reducer";
import { t } from "../i18n";

/** A seat's player, or "seat N" in the page's language. */
export function seatWords(room: RoomModel, seat: number): string {
  return seatName(room.lobby, seat) ?? t.seat(seat + 1);
}
