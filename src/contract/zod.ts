/**
 * zod as the contract's schemas use it. Every schema module imports `z` from here, so the
 * setting below is made before any schema is built: zod decides when a z.object is made whether
 * it may compile its parser, and in the browser that first probes `new Function`, which the
 * store's CSP (script-src 'self') refuses; the browser reports the refusal as a CSP issue.
 * package.json lists this file among the modules with side effects, or the bundler would drop
 * the call (it did once: the catalogue page then had a CSP issue).
 */
import { z } from "zod";

if (typeof document !== "undefined") z.config({ jitless: true });

export { z };
