/**
 * Zod compiles fast object parsers with `new Function` unless told not to. Our CSP forbids eval (no
 * 'unsafe-eval'), so the browser would log a CSP violation the first time a form is validated. Zod reads its
 * settings from this global when a schema is created; setting it here, before any page chunk loads, keeps zod on
 * its interpreted path without pulling zod into the entry bundle.
 */
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };
