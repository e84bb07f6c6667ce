import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type { EmsimClient, GdsUpload } from "../client/index.js";
import { withLocalGdsUploaded } from "./local-gds.js";
import { CliError } from "./output.js";

/** A client that stores uploads by their first byte and answers with an address naming it. */
function fakeClient(uploads: number[]): EmsimClient {
  const uploadGds = async (bytes: Uint8Array) => {
    uploads.push(bytes[0]!);
    return {
      gds_url: `https://emsim.example/storage/objects/gds/a/${bytes[0]}.gds`,
      layer_keys: ["1/0"],
      polygon_count: 1,
      top_cells: ["TOP"],
      warnings: [],
    } as unknown as GdsUpload;
  };
  return { uploadGds } as unknown as EmsimClient;
}

const io = () => ({ json: false, stdout: new PassThrough(), stderr: new PassThrough() });

test("a gds structure's local gds_url is uploaded, relative to the simulation file, once per file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "emsim-local-gds-"));
  try {
    mkdirSync(join(dir, "layouts"));
    writeFileSync(join(dir, "layouts", "a.gds"), Uint8Array.of(7));
    writeFileSync(join(dir, "b.gds"), Uint8Array.of(9));
    const address = "https://emsim.example/storage/objects/gds/a/given.gds";
    const request = {
      structures: [
        { type: "box", material: "Si" },
        { type: "gds", gds_url: "layouts/a.gds", layers: [] },
        { type: "gds", gds_url: address, layers: [] },
        { type: "gds", gds_url: "layouts/a.gds", layers: [], offset: [1e-6, 0] },
        { type: "gds", gds_url: join(dir, "b.gds"), layers: [] },
      ],
    };
    const uploads: number[] = [];
    const sent = await withLocalGdsUploaded(
      request,
      join(dir, "sim.json"),
      fakeClient(uploads),
      io(),
    );
    assert.deepEqual(uploads, [7, 9]);
    assert.deepEqual(
      sent.structures.map((s) => (s as { gds_url?: string }).gds_url),
      [
        undefined,
        "https://emsim.example/storage/objects/gds/a/7.gds",
        address,
        "https://emsim.example/storage/objects/gds/a/7.gds",
        "https://emsim.example/storage/objects/gds/a/9.gds",
      ],
    );
    // The rest of each structure is kept; the request read from the file is not changed.
    assert.deepEqual((sent.structures[3] as { offset: number[] }).offset, [1e-6, 0]);
    assert.equal(request.structures[1]!.gds_url, "layouts/a.gds");

    // Nothing to upload: the same request back. A missing file says which.
    const plain = { structures: [{ type: "gds", gds_url: address }] };
    assert.equal(await withLocalGdsUploaded(plain, "sim.json", fakeClient([]), io()), plain);
    await assert.rejects(
      withLocalGdsUploaded(
        { structures: [{ type: "gds", gds_url: "missing.gds" }] },
        join(dir, "sim.json"),
        fakeClient([]),
        io(),
      ),
      (err: unknown) => err instanceof CliError && /cannot read .*missing\.gds/.test(err.message),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
