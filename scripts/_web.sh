# Sourced by scripts/serve and scripts/test: build the browser client (clients/web) into the
# server package (server/webapp/) when its sources changed since the last build, with the
# machine's Node.js and the versions pinned by package-lock.json (npm ci). Without Node.js the
# bundle already in server/webapp/ (a pip-installed package carries one) is served as it is.
web_build() {
  local web=clients/web out=server/webapp
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    if [ -f "$out/index.html" ]; then
      echo "web client: Node.js not found; serving the packaged bundle in $out"
    else
      echo "web client: no bundle and no Node.js to build one: http://HOST:PORT/ will say so (install Node.js >= 20 and run scripts/serve again)"
    fi
    return 0
  fi
  local hash
  hash=$( (cd "$web" && find src public index.html package.json package-lock.json tsconfig.json vite.config.ts -type f -print0 | sort -z | xargs -0 sha256sum; node --version) | sha256sum | cut -c1-16)
  if [ -f "$out/index.html" ] && [ "$(cat "$out/.build-hash" 2>/dev/null)" = "$hash" ]; then
    return 0
  fi
  echo "web client: building clients/web (npm ci, vite build)"
  # (vite alone: the type check is scripts/test's, before this; the Docker image runs
  # `npm run build`, both)
  (cd "$web" && npm ci --no-audit --no-fund --loglevel=error && npx vite build --logLevel warn) >&2
  echo "$hash" > "$out/.build-hash"
  touch "$web/node_modules/.lock-$(sha256sum "$web/package-lock.json" | cut -c1-16)"
}

web_deps() {
  # node_modules for the unit tests, installed once per package-lock.json
  local web=clients/web stamp
  stamp="$web/node_modules/.lock-$(sha256sum "$web/package-lock.json" | cut -c1-16)"
  if [ ! -f "$stamp" ]; then
    (cd "$web" && npm ci --no-audit --no-fund --loglevel=error) >&2
    touch "$stamp"
  fi
}
