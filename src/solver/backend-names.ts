/**
 * The solver's backends by name, and what configuration may ask for. A leaf (no imports), so
 * the public types (types.ts) and configuration name backends without importing the backend
 * interface (backend.ts), which imports the grid and so the types.
 */

/** The backends there are. */
export const BACKEND_NAMES = ["wasm", "webgpu", "reference"] as const;
export type BackendName = (typeof BACKEND_NAMES)[number];
/** What configuration may ask for: a backend, or `auto` (the fastest this machine runs). */
export const BACKEND_CHOICES = ["auto", ...BACKEND_NAMES] as const;
export type BackendChoice = (typeof BACKEND_CHOICES)[number];
