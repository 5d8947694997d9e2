/// <reference types="vitest/config" />
// Builds the browser client into the server package (server/webapp/), where mahjong-server
// serves it (server/net/web.py). Hashed file names under assets/; every text file also written
// pre-compressed (.br, .gz) for the server to send as is. The build id (a hash of the
// sources, or MAHJONG_WEB_BUILD_ID) is compiled into the client and written to
// build-id.txt, which the server reads and says in its welcome: a page from an older build
// then offers a reload (docs/web.md "A new version"). MAHJONG_WEB_OUT: build elsewhere.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";

const OUT = process.env.MAHJONG_WEB_OUT ? resolve(process.env.MAHJONG_WEB_OUT) : resolve(__dirname, "../../server/webapp");

const walk = (dir: string): string[] =>
  readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });

/** A hash of everything the bundle is built from. */
function sourceHash(): string {
  const h = createHash("sha256");
  const files = [...walk(resolve(__dirname, "src")), ...walk(resolve(__dirname, "public"))];
  for (const f of [...files, "index.html", "package-lock.json", "vite.config.ts"].map((f) => resolve(__dirname, f))) {
    h.update(f.slice(__dirname.length));
    h.update(readFileSync(f));
  }
  return h.digest("hex").slice(0, 16);
}

const BUILD_ID = process.env.MAHJONG_WEB_BUILD_ID || sourceHash();

function buildId(): Plugin {
  return {
    name: "build-id",
    apply: "build",
    closeBundle() {
      writeFileSync(join(OUT, "build-id.txt"), BUILD_ID + "\n");
    },
  };
}

function precompress(): Plugin {
  return {
    name: "precompress",
    apply: "build",
    closeBundle() {
      for (const file of walk(OUT)) {
        if (!/\.(js|css|html|svg|json)$/.test(file)) continue;
        const data = readFileSync(file);
        if (data.length < 512) continue;
        writeFileSync(file + ".gz", gzipSync(data, { level: 9 }));
        writeFileSync(
          file + ".br",
          brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

export default defineConfig({
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  define: { __BUILD_ID__: JSON.stringify(BUILD_ID) },
  build: {
    outDir: OUT,
    emptyOutDir: true,
    target: "es2020",
    assetsInlineLimit: 0,
    // the tile art (with its glyph outlines) in a chunk of its own, counted apart from the
    // budget of the code and the words (tests/web_tests/test_bundle_budget.py); the words
    // (src/i18n) in another, so each figure is read off the build
    rollupOptions: {
      output: {
        manualChunks: (id) => (id.includes("/src/tiles/") ? "tiles" : id.includes("/src/i18n/") ? "i18n" : undefined),
      },
    },
  },
  plugins: [buildId(), precompress()],
  server: { proxy: { "/ws": { target: "ws://127.0.0.1:8765", ws: true } } },
  test: { include: ["test/**/*.test.ts"], environment: "node" },
});
