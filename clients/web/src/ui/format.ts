// Numbers as the screen shows them: negatives with the minus sign (−), never a hyphen, so a
// score reads the same everywhere (the table, the win dialog, the standings, the ledger).

/** −15, 0, 15 */
export function num(v: number): string {
  return v < 0 ? `−${-v}` : `${v}`;
}

/** −15, `zero`, +15: a change */
export function signed(v: number, zero = "±0"): string {
  return v > 0 ? `+${v}` : v < 0 ? `−${-v}` : zero;
}
