// The server's clock as the page reads it: the offset measured with `ping`, and the whole
// seconds left before a deadline (docs/web.md "Turn signals").

/**
 * The server's clock minus this device's, from one `ping`: sent at `sentAt`, answered with
 * `serverMs`, received at `receivedAt` (all in ms). The measurement is good to half the round
 * trip; an offset within that is noise, so it reads as 0 (a device on the server's own clock
 * then counts from exactly the server's deadline).
 */
export function clockOffset(sentAt: number, receivedAt: number, serverMs: number): number {
  const half = Math.max(0, receivedAt - sentAt) / 2;
  const offset = serverMs - (sentAt + receivedAt) / 2;
  return Math.abs(offset) <= half ? 0 : offset;
}

/** Whole seconds left before `at` (server ms) at device time `now` with `offset`: never below 0. */
export function secondsLeft(at: number, now: number, offset: number): number {
  return Math.max(0, Math.ceil((at - (now + offset)) / 1000));
}
