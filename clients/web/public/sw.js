// The installed app's service worker (docs/web.md "Installable"): it keeps the app's shell —
// index.html and the files it names under /assets/ — so the app opened without a network
// shows itself and says it is offline (the page retries the server on its own) instead of a
// blank page. Pages are network-first (a new deploy is seen at once when online), the hashed
// /assets/ files cache-first (they never change). The WebSocket is not a fetch: untouched.
const CACHE = "mahjong-shell-v1";
const SHELL = "/";

async function keepShell(response) {
  const cache = await caches.open(CACHE);
  const html = await response.clone().text();
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
  await cache.put(SHELL, response);
  await Promise.all(
    assets.map(async (url) => {
      if (!(await cache.match(url))) await cache.add(url);
    }),
  );
  // the files of older builds go
  const keep = new Set(assets);
  for (const req of await cache.keys()) {
    const path = new URL(req.url).pathname;
    if (path.startsWith("/assets/") && !keep.has(path)) await cache.delete(req);
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    fetch(SHELL, { cache: "no-cache" })
      .then((r) => (r.ok ? keepShell(r) : undefined))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== location.origin) return;
  if (req.mode === "navigate") {
    // the app's pages (/, /r/<code>) are all the same shell
    event.respondWith(
      fetch(req)
        .then((r) => {
          if (r.ok) event.waitUntil(keepShell(r.clone()));
          return r;
        })
        .catch(async () => (await caches.match(SHELL)) ?? Response.error()),
    );
    return;
  }
  if (url.pathname.startsWith("/assets/")) {
    event.respondWith(
      caches.match(req).then(
        (hit) =>
          hit ??
          fetch(req).then(async (r) => {
            if (r.ok) await (await caches.open(CACHE)).put(req, r.clone());
            return r;
          }),
      ),
    );
  }
});
