#!/usr/bin/env node
/**
 * `npm run build`: src/ compiled into dist/, as `node dist/cli/main.js` and the browser's
 * plotting modules (dist/plot/) load it. Each file is transpiled on its own by esbuild, as
 * tsx does for the tests (tsconfig's `isolatedModules` and `verbatimModuleSyntax` make that
 * safe: types are only stripped), in about 2 s where TypeScript's compiler took 16; the type
 * check is `npm run typecheck`'s, over src, tests and benchmarks at once.
 *
 * Then the declarations of the package's one export, `emsim/client` (tsconfig.build.json),
 * for TypeScript users of the client; `--no-types` leaves them out (`npm start` needs none).
 * Tests (`*.test.ts`) and test helpers (`testing/` folders) are not compiled.
 */
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The modules dist/ holds: every .ts under src/ but tests and test helpers. */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "testing" ? [] : sources(path);
    const compiled = path.endsWith(".ts") && !path.endsWith(".d.ts");
    return compiled && !path.endsWith(".test.ts") ? [path] : [];
  });
}

await build({
  entryPoints: sources(join(root, "src")),
  outdir: join(root, "dist"),
  outbase: join(root, "src"),
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
  tsconfig: join(root, "tsconfig.json"),
});

if (!process.argv.includes("--no-types")) {
  const tsc = join(root, "node_modules/typescript/bin/tsc");
  const declared = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], {
    stdio: "inherit",
  });
  if (declared.status !== 0) process.exit(declared.status ?? 1);
}
