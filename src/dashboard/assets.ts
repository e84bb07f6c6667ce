/**
 * The dashboard's static files (stylesheet, scripts, icon), read once at start from
 * `src/dashboard/static/` and served with strong ETags, plus the plotting core's modules the
 * scripts share with the CLI (src/plot, compiled TypeScript). The scripts themselves are plain
 * ES modules with no build step; the compiled server in `dist/` reads them from the source
 * tree, which ships with the package. three.js's browser build (the `three` package) is served
 * beside them for the set-up's 3-D view (static/setup-3d.js).
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type * as Esbuild from "esbuild";

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

/**
 * The plotting core (src/plot/browser.ts and every module it imports) as browser modules,
 * served flat beside the scripts: browser.ts as `plot-core.js`, each other module `name` as
 * `plot-name.js`, with the relative imports between them renamed to match. The core's modules
 * may import only each other: anything else (Node, the solver, the dashboard) is refused here,
 * at start, so the direction of the imports cannot silently break the page.
 */
export function plotCoreModules(): Map<string, Buffer> {
  const served = (module: string) => (module === "browser" ? "plot-core.js" : `plot-${module}.js`);
  const out = new Map<string, Buffer>();
  const pending = ["browser"];
  while (pending.length > 0) {
    const module = pending.pop()!;
    if (out.has(served(module))) continue;
    const code = coreModule(module)
      .toString("utf8")
      .replace(/^\/\/# sourceMappingURL=.*$/m, "");
    const renamed = code.replace(
      /\b(from|import)(\s*)"([^"]*)"/g,
      (_all, keyword: string, space: string, specifier: string) => {
        const local = /^\.\/([a-z][a-z0-9-]*)\.js$/.exec(specifier);
        if (!local) {
          throw new Error(
            `src/plot/${module}.ts imports "${specifier}": the plotting core the browser loads may import only its own modules`,
          );
        }
        pending.push(local[1]!);
        return `${keyword}${space}"./${served(local[1]!)}"`;
      },
    );
    out.set(served(module), Buffer.from(renamed));
  }
  return out;
}

/**
 * A plotting-core module as browser JavaScript: the compiled file beside this one (dist/, from
 * `npm run build`), or, run from source (tsx, tests), the TypeScript with its types stripped
 * by esbuild (a development dependency, as tsx and the suite's loader are: a tenth of what
 * loading TypeScript's own compiler cost each service started from source).
 */
function coreModule(name: string): Buffer {
  const compiled = fileURLToPath(new URL(`../plot/${name}.js`, import.meta.url));
  if (existsSync(compiled)) return readFileSync(compiled);
  const source = fileURLToPath(new URL(`../plot/${name}.ts`, import.meta.url));
  const esbuild = createRequire(import.meta.url)("esbuild") as typeof Esbuild;
  // No `format`: the module's own import and export statements are kept as written.
  const out = esbuild.transformSync(readFileSync(source, "utf8"), {
    loader: "ts",
    target: "es2022",
  });
  return Buffer.from(out.code);
}

/** three.js's browser modules as the page loads them: the entry and the core it imports. */
const THREE_FILES = ["three.module.js", "three.core.js"];

/**
 * three.js's browser build (node_modules/three/build/), served flat beside the scripts as
 * `three.module.js` and `three.core.js`. The scripts import it by that relative path, since a
 * page has no import map (the CSP allows no inline script to hold one): a bare specifier
 * `three` in the files is renamed to `./three.module.js`, and an import of anything else is
 * refused here, at start, so a release of three that splits its build differently fails the
 * service's start and its tests rather than the 3-D view in a user's browser.
 */
export function threeModules(): Map<string, Buffer> {
  // The package's "require" entry is build/three.cjs, beside the browser modules.
  const build = dirname(createRequire(import.meta.url).resolve("three"));
  const out = new Map<string, Buffer>();
  for (const name of THREE_FILES) {
    const code = readFileSync(join(build, name), "utf8").replace(
      /\b(from|import)(\s*)(["'])([^"']*)\3/g,
      (_all, keyword: string, space: string, quote: string, specifier: string) => {
        const local = specifier === "three" ? "./three.module.js" : specifier;
        if (!THREE_FILES.some((f) => local === `./${f}`)) {
          throw new Error(
            `three/build/${name} imports "${specifier}": only ${THREE_FILES.join(" and ")} are served`,
          );
        }
        return `${keyword}${space}${quote}${local}${quote}`;
      },
    );
    out.set(name, Buffer.from(code));
  }
  return out;
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
  for (const [served, body] of plotCoreModules()) {
    if (assets.has(served)) throw new Error(`static/${served} hides the plotting core's module`);
    assets.set(served, { body, contentType: TYPES[".js"]!, etag: etagOf(body) });
  }
  for (const [served, body] of threeModules()) {
    if (assets.has(served)) throw new Error(`static/${served} hides three.js's module`);
    assets.set(served, { body, contentType: TYPES[".js"]!, etag: etagOf(body) });
  }
  return assets;
}
