/**
 * The dashboard's static files (stylesheet, scripts, icon), read once at start from
 * `src/dashboard/static/` and served with strong ETags, plus the plotting core's modules the
 * scripts share with the CLI (src/plot, compiled TypeScript). The scripts themselves are plain
 * ES modules with no build step; the compiled server in `dist/` reads them from the source
 * tree, which ships with the package.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type TypeScript from "typescript";

export interface Asset {
  body: Buffer;
  contentType: string;
  etag: string;
}

const TYPES: Record<string, string> = {
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
};

/** `static/` beside this module (tsx, tests) or in the source tree (compiled dist/). */
export function staticDir(): string {
  for (const candidate of ["./static/", "../../src/dashboard/static/"]) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(dir)) return dir;
  }
  throw new Error("the dashboard's static files (src/dashboard/static/) are missing");
}

/** Modules of the plotting core (src/plot) the dashboard's scripts import, by served name. */
const CORE_MODULES: Record<string, string> = {
  "plot-colormap.js": "colormap",
  "plot-ticks.js": "ticks",
};

/**
 * A plotting-core module as browser JavaScript: the compiled file beside this one (dist/), or,
 * run from source (tsx, tests), the TypeScript transpiled here (typescript is then installed).
 */
function coreModule(name: string): Buffer {
  const compiled = fileURLToPath(new URL(`../plot/${name}.js`, import.meta.url));
  if (existsSync(compiled)) return readFileSync(compiled);
  const source = fileURLToPath(new URL(`../plot/${name}.ts`, import.meta.url));
  const ts = createRequire(import.meta.url)("typescript") as typeof TypeScript;
  const out = ts.transpileModule(readFileSync(source, "utf8"), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022 },
  });
  return Buffer.from(out.outputText);
}

const etagOf = (body: Buffer) =>
  `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;

export function loadAssets(dir = staticDir()): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(dir)) {
    const ext = name.slice(name.lastIndexOf("."));
    const contentType = TYPES[ext];
    if (!contentType) continue;
    const body = readFileSync(dir + name);
    assets.set(name, { body, contentType, etag: etagOf(body) });
  }
  for (const [served, module] of Object.entries(CORE_MODULES)) {
    const body = coreModule(module);
    assets.set(served, { body, contentType: TYPES[".js"]!, etag: etagOf(body) });
  }
  return assets;
}
