import { useEffect, useState } from "preact/hooks";
import { onLang } from "../i18n";
import type { AppState, Client } from "../net/client";

export function useClient(client: Client): AppState {
  const [, bump] = useState(0);
  useEffect(() => client.subscribe(() => bump((n) => n + 1)), [client]);
  return client.state;
}

/** Re-render every `ms` while mounted (countdowns). */
export function useTick(ms: number): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

/** Re-render (the whole tree below) when the page's language changes. */
export function useLang(): void {
  const [, bump] = useState(0);
  useEffect(() => onLang(() => bump((n) => n + 1)), []);
}
