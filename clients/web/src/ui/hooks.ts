import { useEffect, useState } from "preact/hooks";
import { onLang } from "../i18n";
import type { AppState, Client } from "../net/client";

export function useClient(client: Client): AppState {
  const [, bump] = useState(0);
  useEffect(() => client.subscribe(() => bump((n) => n + 1)), [client]);
  return client.state;
}

/**
 * Re-render every `ms` while mounted (countdowns), and return the time of this render. The
 * time is read when the component renders, not when the timer last fired: a render caused by
 * something else (a new deadline) must not count from a time up to `ms` old.
 */
export function useTick(ms: number): number {
  const [, bump] = useState(0);
  useEffect(() => {
    const t = setInterval(() => bump((n) => n + 1), ms);
    return () => clearInterval(t);
  }, [ms]);
  return Date.now();
}

/** Re-render (the whole tree below) when the page's language changes. */
export function useLang(): void {
  const [, bump] = useState(0);
  useEffect(() => onLang(() => bump((n) => n + 1)), []);
}
