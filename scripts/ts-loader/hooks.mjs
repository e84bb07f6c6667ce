// Module hooks that run emsim's TypeScript sources in Node 20 for the test suite (register.mjs):
// `./x.js` imported from a .ts file is `./x.ts` when that exists (the NodeNext convention the
// sources follow), and a .ts file is compiled to JavaScript by esbuild, type annotations
// stripped and nothing else changed (the type checker is `npm run typecheck`). Compiled files
// are kept in a cache keyed by their source's SHA-1, so each file is compiled once per change.
// Everything else is passed straight on to Node's own resolution and loading: unlike a general
// loader (tsx), nothing is looked up, read or transformed here for the hundreds of JavaScript
// modules a test imports.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { transform, version } from "esbuild";

const CACHE = join(tmpdir(), `emsim-ts-loader-${process.getuid?.() ?? "user"}`);
mkdirSync(CACHE, { recursive: true });

export async function resolve(specifier, context, next) {
  const parent = context.parentURL;
  if (parent?.endsWith(".ts") && specifier.startsWith(".") && specifier.endsWith(".js")) {
    const ts = new URL(`${specifier.slice(0, -3)}.ts`, parent);
    if (existsSync(fileURLToPath(ts)))
      return { url: ts.href, format: "module", shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return next(url, context);
  const path = fileURLToPath(url);
  const source = await readFile(path, "utf8");
  const key = createHash("sha1").update(`${version}\0${path}\0${source}`).digest("hex");
  const cached = join(CACHE, `${key}.js`);
  try {
    return { format: "module", source: await readFile(cached, "utf8"), shortCircuit: true };
  } catch {
    // not compiled yet
  }
  const { code } = await transform(source, {
    loader: "ts",
    format: "esm",
    target: "node20",
    sourcemap: "inline",
    sourcefile: path,
  });
  // Written whole, then renamed: a test file running beside this one never reads half a file.
  const part = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await writeFile(part, code);
  await rename(part, cached);
  return { format: "module", source: code, shortCircuit: true };
}
