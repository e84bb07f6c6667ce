/**
 * A plane's wavelengths on two threads (chains.ts, chain-helper.ts): the chains go out from the
 * first wavelength to the nearest ones, the helper thread solves its chain, and the modes are
 * the very numbers one thread gives (the same steps from the same start).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { chainHelperReady, stepsSolvedByHelper } from "./chain-helper.js";
import { wavelengthChains } from "./chains.js";
import { coarseSiWire, everyModeNumber } from "./slab-case.js";
import { solveModes, type SolveModesInput } from "./solve.js";
import { cancelledError } from "../stop-flag.js";

const strip = coarseSiWire();
const input: SolveModesInput = {
  axes: strip.axes,
  planeEps: strip.eps,
  wavelengths_m: [1.55e-6, 1.5e-6, 1.52e-6, 1.54e-6, 1.56e-6, 1.58e-6, 1.6e-6],
  mode_spec: { num_modes: 2 },
  groupIndex: "first",
};

/** Every number of every mode, for exact comparison. */
const flat = (r: ReturnType<typeof solveModes>) => everyModeNumber(r.modes);

describe("a plane's wavelength chains", () => {
  it("go out from the first wavelength, nearest first, ties in list order", () => {
    const wl = [1.55, 1.5, 1.6, 1.52, 1.58, 1.55, 1.52];
    assert.deepEqual(wavelengthChains(wl), [
      [5, 3, 6, 1],
      [4, 2],
    ]);
    assert.deepEqual(wavelengthChains([1.5]), [[], []]);
  });

  it("give on two threads, the helper solving one chain, the modes one thread gives", async () => {
    const one = flat(solveModes({ ...input, threads: 1 }, null));
    await chainHelperReady();
    const before = stepsSolvedByHelper();
    const two = flat(solveModes({ ...input, threads: 2 }, null));
    assert.ok(stepsSolvedByHelper() > before, "the helper thread solved none of the steps");
    assert.equal(two.length, one.length);
    assert.ok(
      two.every((v, i) => Object.is(v, one[i])),
      "the modes differ",
    );
  });

  it("stop on both threads when the run is cancelled, and solve the next plane as before", async () => {
    await chainHelperReady();
    const one = flat(solveModes({ ...input, threads: 1 }, null));
    // Cancelled at the 40th Arnoldi step: past the first wavelength, inside the chains.
    let steps = 0;
    const checkStop = () => {
      if (++steps >= 40) throw cancelledError();
    };
    assert.throws(
      () => solveModes({ ...input, threads: 2, checkStop }, null),
      (e: Error) => e.name === "AbortError",
    );
    assert.equal(steps, 40, "the solve went on after the cancel");
    const before = stepsSolvedByHelper();
    const again = flat(solveModes({ ...input, threads: 2 }, null));
    assert.ok(stepsSolvedByHelper() > before, "the helper thread solved none of the steps");
    assert.ok(
      again.every((v, i) => Object.is(v, one[i])),
      "the modes differ",
    );
  });

  it("report the group index at the first wavelength only when asked so", () => {
    const r = solveModes({ ...input, wavelengths_m: input.wavelengths_m.slice(0, 3) }, null);
    assert.ok(r.modes[0]!.every((m) => m.group_index! > 3 && m.group_index! < 5));
    assert.ok(r.modes.slice(1).every((w) => w.every((m) => m.group_index === undefined)));
  });
});
