// Tile codes in the engine's order (docs/table.md: 1m…9m 1p…9p 1s…9s we ws ww wn dr dg dw f1…f8).
import type { Tile } from "../protocol/types";

export const ALL_TILES: Tile[] = [
  ..."mps".split("").flatMap((s) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `${n}${s}`)),
  "we", "ws", "ww", "wn", "dr", "dg", "dw",
  "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8",
];
const RANK = new Map(ALL_TILES.map((t, i) => [t, i]));

export function tileRank(t: Tile): number {
  return RANK.get(t) ?? 99;
}

export function sortTiles(tiles: readonly Tile[]): Tile[] {
  return [...tiles].sort((a, b) => tileRank(a) - tileRank(b));
}
