/**
 * Local GDS II files for commands that send them to the server: `emsim drc FILE.gds` and
 * `recipe FILE.gds` take a file or a gds_url, and a simulation file's `gds` structures may
 * name a local file in `gds_url` (a path relative to the simulation file, e.g.
 * examples/directional-coupler-sparameters.json's "directional-coupler.gds"), which `submit`,
 * `estimate` and `modes` upload (POST /v1/fabrication/gds) and replace by the address the
 * server issues. An address is what the server accepts; a file is what a user has.
 */
import { dirname, isAbsolute, join } from "node:path";
import type { EmsimClient } from "../client/index.js";
import { readInputFile } from "./input-file.js";
import type { CommandIo } from "./output.js";

/** An http(s) address (a gds_url) rather than a local path. */
export const isUrl = (s: string) => /^https?:\/\//i.test(s);

/** A gds_url as given, or a local file uploaded for one (a note on stderr says so). */
export async function gdsUrlFor(
  client: EmsimClient,
  source: string,
  io: CommandIo,
  signal?: AbortSignal,
): Promise<string> {
  if (isUrl(source)) return source;
  const bytes = await readInputFile(source);
  const uploaded = await client.uploadGds(new Uint8Array(bytes), { signal });
  if (!io.json) {
    io.stderr.write(
      `uploaded ${source}: ${uploaded.polygon_count} polygons on ${uploaded.layer_keys.join(", ") || "no layers"} (top cell ${uploaded.top_cells.join(", ")})\n`,
    );
    for (const w of uploaded.warnings) io.stderr.write(`warning: ${w}\n`);
  }
  return uploaded.gds_url;
}

type LocalGds = { type: "gds"; gds_url: string };

/** A structure that is `type: "gds"` with a local path, not an address, in `gds_url`. */
export function isLocalGds(s: unknown): s is LocalGds {
  if (typeof s !== "object" || s === null) return false;
  const { type, gds_url: url } = s as { type?: unknown; gds_url?: unknown };
  return type === "gds" && typeof url === "string" && !isUrl(url);
}

/** A local `gds_url`'s file: an absolute path, or one relative to the simulation file's folder. */
export function localGdsPath(gdsUrl: string, simulationFile: string): string {
  return isAbsolute(gdsUrl) ? gdsUrl : join(dirname(simulationFile), gdsUrl);
}

/**
 * The request with each `gds` structure whose `gds_url` is a local path (relative to
 * `simulationFile`'s folder) uploaded and given the server's address; each file is uploaded
 * once. A request with none is returned as it is.
 */
export async function withLocalGdsUploaded<R extends { structures?: readonly unknown[] }>(
  request: R,
  simulationFile: string,
  client: EmsimClient,
  io: CommandIo,
  signal?: AbortSignal,
): Promise<R> {
  const structures = request.structures;
  if (!structures?.some(isLocalGds)) return request;
  const urls = new Map<string, string>();
  const out: unknown[] = [];
  for (const s of structures) {
    if (!isLocalGds(s)) {
      out.push(s);
      continue;
    }
    const path = localGdsPath(s.gds_url, simulationFile);
    const url = urls.get(path) ?? (await gdsUrlFor(client, path, io, signal));
    urls.set(path, url);
    out.push({ ...s, gds_url: url });
  }
  return { ...request, structures: out };
}
