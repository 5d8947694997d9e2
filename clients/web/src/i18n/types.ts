// The shape every catalogue has: the keys of en.ts, each a string, a function with the same
// parameters, or a map with the same keys.
import type { en } from "./en";

type Shape<T> = {
  [K in keyof T]: T[K] extends string
    ? string
    : T[K] extends (...a: infer A) => string
      ? (...a: A) => string
      : Shape<T[K]>;
};

export type Catalogue = Shape<typeof en>;
export type Lang = "en" | "zh-Hant" | "zh-Hans";
