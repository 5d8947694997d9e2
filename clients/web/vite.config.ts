/// <reference types="vitest/config" />
// Builds the browser client into the server package (server/webapp/), where mahjong-server
// serves it (server/web.py). Hashed file names under assets/; every text file also written
// pre-compressed (.br, .gz) for the server to send as is.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";

const OUT = resolve(__dirname, "../../server/webapp");

function precompress(): Plugin {
  return {
    name: "precompress",
    apply: "build",
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((n) => {
          const p = join(dir, n);
          return statSync(p).isDirectory() ? walk(p) : [p];
        });
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
  plugins: [precompress()],
  server: { proxy: { "/ws": { target: "ws://127.0.0.1:8765", ws: true } } },
  test: { include: ["test/**/*.test.ts"], environment: "node" },
});
