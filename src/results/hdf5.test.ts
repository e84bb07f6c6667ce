/**
 * Writing a job's result file where the disk does not take it (audit F2). HDF5 refuses quietly:
 * its error stack goes to stderr and h5wasm hands back a file with a negative id or null where
 * a dataset should be. The writer must say so as a ResultFileError (a storage failure, worth
 * another attempt), never as the TypeError the null would become, which the solver thread
 * reads as a bug of ours. A file whose folder is gone takes h5wasm down exactly the path a full
 * disk does (test/hardening/results-disk-full.test.ts has the full disk itself); a result that
 * does not match its own shapes is still our bug.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyDefaults } from "../schema/validate.js";
import type { SimulationRequest } from "../schema/simulation.js";
import { runSimulation } from "../solver/index.js";
import type { SolverResult } from "../solver/types.js";
import { ResultFileError, verifyResultFile, writeResultFile } from "./hdf5.js";
import { readResultInfo } from "./read.js";

let dir: string;
let input: { jobId: string; solverVersion: string; specJson: string; result: SolverResult };

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "emsim-hdf5-"));
  // A slab in a periodic column, a field line and a flux plane: a fraction of a second.
  const spec = applyDefaults({
    solver: "fdtd",
    domain: {
      size: [0.05e-6, 0.05e-6, 2e-6],
      resolution: 0.05e-6,
      boundary_conditions: ["periodic", "periodic", "pml"],
    },
    source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [0, 0, 1] },
    monitors: [
      { name: "line", monitor_type: "field", center: [0, 0, 0], size: [0, 0, 1e-6] },
      { name: "T", monitor_type: "flux", center: [0, 0, 0.6e-6], size: [0.05e-6, 0.05e-6, 0] },
    ],
    fdtd_settings: { time_steps: 200 },
  } as unknown as SimulationRequest);
  const result = await runSimulation(spec);
  input = { jobId: "hdf5-test", solverVersion: "test", specJson: JSON.stringify(spec), result };
});
after(() => rmSync(dir, { recursive: true, force: true }));

test("the writer writes a file that reads back (the fixture is sound)", async () => {
  const path = join(dir, "ok.h5");
  await writeResultFile(path, input);
  await verifyResultFile(path, input);
});

test("a truncated file is said to be truncated before HDF5 is asked to read it", async () => {
  const path = join(dir, "whole.h5");
  await writeResultFile(path, input);
  await readResultInfo(path);
  const bytes = readFileSync(path);
  const cut = join(dir, "cut.h5");
  writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
  await assert.rejects(
    readResultInfo(cut),
    new RegExp(`is truncated: it has ${Math.floor(bytes.length / 2)} bytes of the ${bytes.length}`),
  );
  // Cut inside the superblock: the signature alone, or the end-of-file address half there.
  for (const keep of [8, 20, 29, 35]) {
    writeFileSync(cut, bytes.subarray(0, keep));
    await assert.rejects(readResultInfo(cut), /is truncated: .*its header is cut off/, `${keep} B`);
  }
});

test("a result file HDF5 cannot create is a ResultFileError, not a TypeError", async () => {
  const path = join(dir, "gone", "result.h5");
  await assert.rejects(writeResultFile(path, input), (err: unknown) => {
    assert.ok(err instanceof ResultFileError, `${(err as Error).name}: ${(err as Error).message}`);
    return true;
  });
  assert.equal(existsSync(path), false);
});

test("a result that does not match its own shapes is not a storage failure", async () => {
  // A bug of ours (a monitor's data shorter than its shape): h5wasm refuses it before HDF5
  // writes anything, and it must not be retried as if the disk were at fault.
  const [line] = input.result.monitors;
  const broken: SolverResult = {
    ...input.result,
    monitors: [{ ...line!, data: { ...line!.data, Ey: new Float32Array(6) } }],
  };
  await assert.rejects(
    writeResultFile(join(dir, "broken.h5"), { ...input, result: broken }),
    (err: unknown) => {
      assert.ok(!(err instanceof ResultFileError), `a bug read as storage: ${String(err)}`);
      return true;
    },
  );
});
