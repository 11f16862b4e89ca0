// The CLI's version, set at build time by tsup (define) and read from package.json when run from source.
declare const __KFORGE_VERSION__: string | undefined;

export const VERSION: string = typeof __KFORGE_VERSION__ === 'string' ? __KFORGE_VERSION__ : '0.1.0';
