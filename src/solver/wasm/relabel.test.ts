/**
 * A 3-D grid stored with its longest axis as the kernel's rows (relabel.ts): which axis is
 * chosen, and that the fields are those of the grid stored as it is (bit for bit but for the
 * last bit of complex fields) with the absorber, graded cells, Bloch phases, mirror walls, a
 * dispersive sphere and a mode source.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SteppingProblem } from "../backend.js";
import { YeeLayout } from "../grid.js";
import { runPorts } from "../ports.js";
import { runWithMaterials } from "../run.js";
import { FdtdSimulation } from "../simulation.js";
import {
  AGREEMENT_MATERIALS,
  agreementSpec,
  MIRROR_CASES,
  worstFieldDifference,
  type AgreementCase,
} from "../testing/agreement.js";
import { constantMaterials } from "../testing/index.js";
import type { PortSpec, SimulationSpec } from "../types.js";
import { threadsFor } from "./engine.js";
import { relabelShift } from "./relabel.js";

/** The parts of a problem relabelShift reads. */
function problem(n: [number, number, number], periodicZ = false): SteppingProblem {
  const layout = new YeeLayout(n, ["pml", "pml", periodicZ ? "periodic" : "pml"]);
  return { layout, blochPhase: [0, 0, 0] } as unknown as SteppingProblem;
}

describe("the axis a 3-D grid's rows run along", () => {
  it("is its longest: x (shift 2), y (shift 1), z kept on a tie", () => {
    assert.equal(relabelShift(problem([80, 60, 50])), 2);
    assert.equal(relabelShift(problem([60, 80, 50])), 1);
    assert.equal(relabelShift(problem([60, 50, 80])), 0);
    assert.equal(relabelShift(problem([80, 80, 50])), 2);
    assert.equal(relabelShift(problem([80, 50, 80])), 0);
    assert.equal(relabelShift(problem([80, 60, 50]), { alongLongest: false }), 0);
  });

  it("is left as it is where fewer threads could share the planes, or the grid is large", () => {
    // Stored as x, y's 3 planes make work for 2 threads where x's 80 made it for 8.
    const threadsOf = (wanted: number) => (l: YeeLayout) => threadsFor(l, wanted, 0);
    assert.equal(relabelShift(problem([80, 3, 50]), { threadsOf: threadsOf(8) }), 0);
    assert.equal(relabelShift(problem([80, 3, 50]), { threadsOf: threadsOf(2) }), 2);
    assert.equal(relabelShift(problem([400, 200, 200])), 2);
    assert.equal(relabelShift(problem([500, 200, 200])), 0);
  });

  it("of a grid one cell thick stays as it was (thin.ts)", () => {
    assert.equal(relabelShift(problem([80, 60, 1], true)), 2);
    assert.equal(relabelShift(problem([80, 1, 50])), 0);
    assert.equal(relabelShift(problem([1, 60, 50])), 0);
  });
});

const CASES: AgreementCase[] = [
  {
    name: "oblique about x (Bloch along y and z), graded along x: rows along x",
    boundaries: ["pml", "periodic", "periodic"],
    direction: [1, 0.25, -0.2],
    polarization: "tm",
    cells: [24, 8, 7],
    refine: [true, false, false],
  },
  // Graded, mirror walls on x and z: rows along y.
  MIRROR_CASES[1]!,
];

describe("a 3-D grid stored with its longest axis as rows", () => {
  for (const c of CASES) {
    it(`steps to the same fields: ${c.name}`, async () => {
      const steps = 90;
      const spec = agreementSpec(c, steps, { transmitted: 7, reflected: 9 });
      const run = async (rowsAlongLongestAxis: boolean) => {
        const sim = new FdtdSimulation(spec, AGREEMENT_MATERIALS, {
          backend: "wasm",
          threads: 2,
          minCellsPerThread: 0,
          rowsAlongLongestAxis,
        });
        await sim.prepare();
        try {
          while (sim.stepIndex < steps) sim.step(steps);
          return { sets: await sim.fields(), layout: sim.model.layout };
        } finally {
          sim.dispose();
        }
      };
      const asIs = await run(false);
      const rows = await run(true);
      assert.ok(Math.max(...asIs.sets[0].c[1].map(Math.abs)) > 0, "the fields are all zero");
      // Real fields are bit for bit the same; Bloch-periodic (complex) ones differ in the last
      // bit of some values (1e-7 of the peak; where is not traced), where a wrong index, sign
      // or phase would differ by order 1.
      const bound = c.boundaries.includes("periodic") ? 3e-7 : 0;
      assert.ok(worstFieldDifference(asIs.sets, rows.sets, asIs.layout) <= bound);
    });
  }

  it("gives a wire's S-parameters bit for bit (a mode source and mode monitors along x)", async () => {
    const port = (name: string, x: number, direction: "+x" | "-x"): PortSpec => ({
      name,
      center: [x, 0, 0],
      size: [0, 1.2e-6, 1e-6],
      direction,
      mode_spec: { num_modes: 1, target_neff: null, filter_pol: null },
    });
    const spec: SimulationSpec = {
      solver: "fdtd",
      domain: {
        size: [2e-6, 1.2e-6, 1e-6],
        resolution: 50e-9,
        boundary_conditions: ["pml", "pml", "pml"],
        pml_layers: 8,
        symmetry: ["none", "pec", "pmc"],
      },
      source: {
        source_type: "ports",
        wavelength: 1.55e-6,
        wavelengths: [1.5e-6, 1.6e-6],
        run_ports: ["o1"],
      },
      ports: [port("o1", -0.6e-6, "+x"), port("o2", 0.6e-6, "-x")],
      structures: [
        { type: "box", center: [0, 0, 0], size: [10, 10, 10], material: "oxide" },
        { type: "box", center: [0, 0, 0], size: [10, 0.5e-6, 0.22e-6], material: "silicon" },
      ],
      monitors: [],
      fdtd_settings: {
        time_steps: 400,
        courant_factor: 0.99,
        convergence_threshold: 1e-6,
        check_every_n: 500,
      },
    };
    const materials = constantMaterials({ silicon: 3.476 ** 2, oxide: 1.444 ** 2 });
    const s = async (rowsAlongLongestAxis: boolean) => {
      const result = await runPorts(
        spec,
        (one, o) =>
          runWithMaterials(one, materials, { ...o, backend: "wasm", rowsAlongLongestAxis }),
        {},
      );
      return Array.from(result.sMatrix!.s);
    };
    const asIs = await s(false);
    assert.ok(
      asIs.some((v) => Math.abs(v) > 1e-3),
      "no light reached the ports",
    );
    assert.deepEqual(await s(true), asIs);
  });
});
