/**
 * Faces meant to lie on grid nodes, painted alike at their mirror images. A box's faces at
 * z = ±(0.195 ± 0.025) µm on a 10 nm grid miss their nodes by rounding, each by its own amount:
 * overlap.ts takes a face within 1e-9 of a cell of a node as on it. Before, a cube cut by 1e-16
 * of a cell got a normal across the face, and a metal's cells along the box's edges were
 * painted on one side of the mirror and not on the other: a dipole between two gold boxes
 * radiated 9 % more in the whole grid than in the half that `domain.symmetry` steps, and one
 * gold box's four mirror images spread 5 % (an outside probe). And a metal's cell painted whole
 * or not at all (its surface across the component) takes a fill of a half, up to rounding, as
 * holding the cell's centre (medium.ts holdsCentre).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runWithMaterials } from "./run.js";
import { FdtdSimulation } from "./simulation.js";
import { libraryMaterials } from "./entry-points.js";
import { withUserMaterials } from "./dispersion/user.js";
import type { SimulationSpec, StructureSpec, Symmetry } from "./types.js";

const USER = {
  lorentz: {
    permittivity: 3,
    poles: [{ type: "lorentz" as const, delta_eps: 1, omega0: 5e15, gamma: 1e14 }],
  },
};
const materials = withUserMaterials(libraryMaterials, USER);

/** Two boxes of `material` at z = ±0.195 µm, faces on 10 nm nodes only up to rounding. */
const goldPair = (material: string): StructureSpec[] =>
  [1, -1].map((side) => ({
    type: "box",
    center: [0, 0, side * 0.195e-6],
    size: [0.3e-6, 1, 0.05e-6],
    material,
  }));

/** A 2-D (x, z) problem `width` wide, one 10 nm cell thick, a dipole Ez at the origin. */
function spec(
  structures: StructureSpec[],
  symmetry?: [Symmetry, Symmetry, Symmetry],
  { width, pml } = { width: 0.8e-6, pml: 12 },
) {
  return {
    solver: "fdtd",
    domain: {
      size: [width, 1e-8, width],
      resolution: 1e-8,
      boundary_conditions: ["pml", "periodic", "pml"],
      pml_layers: pml,
      ...(symmetry ? { symmetry } : {}),
    },
    source: {
      source_type: "point_dipole",
      wavelength: 0.7e-6,
      center: [0, 0, 0],
      polarization: "Ez",
      amplitude: 1e-3,
    },
    structures,
    materials: USER,
    monitors: [
      {
        name: "box",
        monitor_type: "flux",
        center: [0, 0, 0],
        size: [0.6e-6, 1e-8, 0.6e-6],
        wavelengths: { start: 0.55e-6, stop: 0.9e-6, points: 4 },
      },
    ],
    fdtd_settings: {
      time_steps: 40_000,
      courant_factor: 0.99,
      convergence_threshold: 1e-7,
      check_every_n: 200,
    },
  } as SimulationSpec;
}

/** A 3-D problem 0.4 µm across on 20 nm cells holding `structures` (painted, not stepped). */
function cube(structures: StructureSpec[]): SimulationSpec {
  const s = spec(structures);
  s.domain = {
    size: [0.4e-6, 0.4e-6, 0.4e-6],
    resolution: 2e-8,
    boundary_conditions: ["pml", "pml", "pml"],
    pml_layers: 8,
  };
  s.monitors = [];
  return s;
}

/**
 * E cells of `a`'s painting unlike those of `b`'s at their mirror image about the plane m = 0
 * (`b` = `a`: a painting against itself), each cell's coefficients and poles compared as they
 * are or, with `digits`, to that many significant digits.
 */
async function unlikeMirror(
  a: SimulationSpec,
  b: SimulationSpec,
  m: number,
  digits?: number,
): Promise<number> {
  const round = (_: string, v: unknown) =>
    typeof v === "number" && digits ? v.toPrecision(digits) : v;
  const painted = async (s: SimulationSpec) => {
    const sim = new FdtdSimulation(s, materials, { backend: "reference" });
    await sim.prepare();
    const { medium, layout } = sim.model;
    const entry = (c: number, at: number[]) => {
      const e = medium.index[c]![layout.index(at[0]!, at[1]!, at[2]!)]!;
      return JSON.stringify([medium.ca[e], medium.cb[e], medium.poles?.[e] ?? []], round);
    };
    return { entry, n: layout.n };
  };
  const pa = await painted(a);
  const pb = b === a ? pa : await painted(b);
  const n = pa.n;
  let unlike = 0;
  for (let c = 0; c < 3; c++) {
    // Along m, E_m sits at v + ½ (v < n, its image at n − 1 − v), the others at node v (v ≤ n,
    // image n − v, the walls included); across, at the cells 0 … n − 1.
    const last = n.map((nd, d) => (d === m && c !== m ? nd : nd - 1));
    const image = (at: number[]) =>
      at.map((v, d) => (d !== m ? v : c === m ? n[m]! - 1 - v : n[m]! - v));
    for (let i = 0; i <= last[0]!; i++) {
      for (let j = 0; j <= last[1]!; j++) {
        for (let k = 0; k <= last[2]!; k++) {
          if (pa.entry(c, [i, j, k]) !== pb.entry(c, image([i, j, k]))) unlike++;
        }
      }
    }
  }
  return unlike;
}

/** Coordinates given in µm, in metres. */
const um = (points: number[][]) => points.map((p) => p.map((c) => c * 1e-6));

describe("faces on grid nodes are painted as their mirror images", () => {
  it("a gold rod half a cell off the nodes, a polyslab with a hole on them: as their images", async () => {
    const rod = (x: number): StructureSpec => ({
      type: "cylinder",
      center: [x, 0.05e-6, 0.03e-6],
      radius: 0.05e-6,
      height: 0.1e-6,
      axis: "x",
      material: "Au",
    });
    // To nine digits: a fill's last digits differ by rounding between images.
    assert.equal(await unlikeMirror(cube([rod(0.07e-6)]), cube([rod(-0.07e-6)]), 0, 9), 0);
    const ring = (r: number[][], flip: number) => r.map(([x, y]) => [x!, flip * y!]);
    const outline = um([
      [0.02, 0],
      [0.16, 0],
      [0.16, 0.14],
      [0.02, 0.14],
    ]);
    const hole = um([
      [0.06, 0.04],
      [0.12, 0.04],
      [0.12, 0.1],
      [0.06, 0.1],
    ]);
    const slab = (flip: number): StructureSpec => ({
      type: "polyslab",
      vertices: ring(outline, flip) as [number, number][],
      holes: [ring(hole, flip) as [number, number][]],
      z_min: 0.02e-6,
      z_max: 0.12e-6,
      material: "Au",
    });
    assert.equal(await unlikeMirror(cube([slab(1)]), cube([slab(-1)]), 1, 9), 0);
  });

  it("two gold boxes and a Lorentz box: every E cell's material is its image's", async () => {
    const self = (s: SimulationSpec) => unlikeMirror(s, s, 2);
    assert.equal(await self(spec(goldPair("Au"))), 0);
    const centred: StructureSpec = {
      type: "box",
      center: [0, 0, 0],
      size: [0.1e-6, 1, 0.04e-6],
      material: "lorentz",
    };
    assert.equal(await self(spec([centred])), 0);
    // Cylinders whose surface passes through cells' centres: a gold cell painted whole or not
    // at all by whether the fill is half, which rounding put either side of it.
    const rods = [1, -1].map((side): StructureSpec => ({
      type: "cylinder",
      center: [0, 0, side * 0.195e-6],
      radius: 60e-9,
      height: 1,
      axis: "y",
      material: "Au",
    }));
    // (Where the nodes fall decides which cells rounding puts either side: this grid has some.)
    assert.equal(await self(spec(rods, undefined, { width: 1.2e-6, pml: 16 })), 0);
  });

  it("a dipole between two gold boxes radiates the same in the whole grid and the half", async () => {
    const run = async (s: SimulationSpec) =>
      Array.from((await runWithMaterials(s, materials, { backend: "wasm" })).fluxMonitors[0]!.flux);
    const whole = await run(spec(goldPair("Au")));
    const half = await run(spec(goldPair("Au"), ["pmc", "none", "pec"]));
    whole.forEach((p, w) => {
      assert.ok(Math.abs(half[w]! / p - 1) < 1e-5, `whole ${whole} against half ${half}`);
    });
  });
});
