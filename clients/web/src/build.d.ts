/** The build id vite.config.ts compiles in (a hash of the sources). */
declare const __BUILD_ID__: string;
