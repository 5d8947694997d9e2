import { render } from "preact";
import { initLang } from "./i18n";
import { Client } from "./net/client";
import { tileUrl } from "./tiles/art";
import { ALL_TILES } from "./tiles/order";
import { App } from "./ui/app";
import { GamePage, MyGames } from "./ui/archive";
import "./style.css";

initLang(); // the remembered language, or the browser's: before the first render
// every tile's art, for the browser test that draws them without a CJK font
(globalThis as { mahjongTiles?: unknown }).mahjongTiles = { codes: ALL_TILES, url: tileUrl };

// /g/<id>: a finished game's page and replay; /my: this player's games (both read the
// archive's HTTP API, no WebSocket); /r/<code> opens the app straight into that room
const game = /^\/g\/([A-Za-z0-9_-]{1,64})$/.exec(location.pathname);
const root = document.getElementById("app")!;
if (game) render(<GamePage id={game[1]!} />, root);
else if (location.pathname === "/my") render(<MyGames />, root);
else startApp();

function startApp(): void {
  const m = /^\/r\/([A-Za-z0-9-]{1,16})$/.exec(location.pathname);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const client = new Client(`${scheme}://${location.host}/ws`, m?.[1] ?? null);
  (globalThis as { mahjong?: Client }).mahjong = client; // for debugging and the browser tests
  client.connect();
  render(<App client={client} />, root);
  // back online: try the server at once rather than at the next retry
  window.addEventListener("online", () => client.retryNow());
}

// the installed app's shell, kept for opening it without a network (public/sw.js); browsers
// allow a service worker only in a secure context (https, or localhost)
if ("serviceWorker" in navigator && window.isSecureContext) {
  void navigator.serviceWorker.register("/sw.js").catch(() => undefined);
}
