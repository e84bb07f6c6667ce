/**
 * The dashboard's static files (stylesheet, scripts, icon), read once at start from
 * `src/dashboard/static/` and served with strong ETags. They are plain CSS and ES modules with
 * no build step; the compiled server in `dist/` reads them from the source tree, which ships
 * with the package.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

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

export function loadAssets(dir = staticDir()): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(dir)) {
    const ext = name.slice(name.lastIndexOf("."));
    const contentType = TYPES[ext];
    if (!contentType) continue;
    const body = readFileSync(dir + name);
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
    assets.set(name, { body, contentType, etag });
  }
  return assets;
}
