import { config } from "zod";

// The page runs under a CSP without 'unsafe-eval'. zod decides at schema construction whether to
// compile parsers with `new Function`, so this must run before any contract module is evaluated:
// main.tsx imports this file first.
config({ jitless: true });
