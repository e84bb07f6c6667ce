/**
 * The fused E rows' pieces (runs.ts): every cell keeps its own entries, short pieces are
 * merged into mixed ones whose boundaries fall on whole vectors, and the kernel's mixed spans
 * (per-lane gathered coefficients) give the same fields, bit for bit, as one span per
 * material change — on a lattice of small smoothed spheres that reaches into every absorber
 * slab, with real and with complex (Bloch) fields, on several threads.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FdtdSimulation } from "../simulation.js";
import { boxSpec, constantMaterials } from "../testing/index.js";
import type { SimulationSpec, StructureSpec, Vec3 } from "../types.js";
import type { FastEngine } from "./engine.js";
import { MIXED_PIECE, rowPieces, SHORTEST_UNIFORM_PIECE } from "./runs.js";

/** Deterministic pseudo-random numbers in [0, 1) (a linear congruential generator). */
function random(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

describe("fused pieces", () => {
  it("cover the row, keep uniform entries uniform and put mixed boundaries on vectors", () => {
    const rand = random(7);
    for (let trial = 0; trial < 300; trial++) {
      const k0 = Math.floor(rand() * 3);
      const k1 = k0 + 1 + Math.floor(rand() * 120);
      // Entries in stretches of 1 … 30 cells (the short ones like interface cells).
      const entry: number[] = [];
      let value = 0;
      while (entry.length < k1) {
        const length = rand() < 0.5 ? 1 + Math.floor(rand() * 3) : 1 + Math.floor(rand() * 30);
        value++;
        for (let n = 0; n < length; n++) entry.push(value);
      }
      const same = (k: number) => entry[k] === entry[k - 1];
      for (const shortest of [0, 4, SHORTEST_UNIFORM_PIECE, 16]) {
        const pieces = rowPieces(k0, k1, same, shortest);
        const what = `trial ${trial}, shortest ${shortest}`;
        assert.equal(pieces[0].k0, k0, what);
        assert.equal(pieces[pieces.length - 1].k1, k1, what);
        pieces.forEach((p, n) => {
          assert.ok(p.k1 > p.k0, what);
          const next = pieces[n + 1];
          if (next) assert.equal(next.k0, p.k1, what);
          if (!p.mixed) {
            for (let k = p.k0 + 1; k < p.k1; k++) assert.ok(same(k), `${what}: cell ${k}`);
          }
          if (shortest === 0) {
            assert.ok(!p.mixed, what);
            // Without mixing, a piece per material change: none could be longer.
            if (next) assert.ok(!same(p.k1), what);
            return;
          }
          if (next) {
            assert.ok(!(p.mixed && next.mixed), `${what}: two mixed pieces in a row`);
            // Pieces meeting a mixed one are whole vectors (no scalar tail inside the row).
            if (p.mixed || next.mixed) assert.equal((p.k1 - p.k0) % 4, 0, what);
          }
          if (!p.mixed) assert.ok(p.k1 - p.k0 >= 4, what);
        });
        // Every stretch of the row shorter than `shortest` lies in a mixed piece.
        let start = k0;
        for (let k = k0 + 1; k <= k1; k++) {
          if (k < k1 && same(k)) continue;
          if (k - start < shortest) {
            const holder = pieces.find((p) => p.k0 <= start && k <= p.k1);
            assert.ok(holder?.mixed, `${what}: short stretch [${start}, ${k})`);
          }
          start = k;
        }
      }
    }
  });

  const step = 50e-9;
  const cells = 28;
  const pml = 4;
  const materials = constantMaterials({ glass: 2.25, lossy: { re: 4, im: 0.5 } });
  /** The test grid with `structures`, lit along `direction` (periodic across an oblique one). */
  function grid(direction: Vec3, structures: StructureSpec[]): SimulationSpec {
    const size = cells * step;
    return boxSpec({
      sizeM: [size, size, size],
      stepM: step,
      wavelengthM: 16 * step,
      boundaries: direction[0] === 0 ? ["pml", "pml", "pml"] : ["periodic", "periodic", "pml"],
      pmlLayers: pml,
      direction,
      structures,
      monitors: [
        {
          name: "t",
          monitor_type: "field",
          center: [0, 0, size / 4],
          size: [size, size, 0],
          components: ["Ex", "Ey"],
        },
      ],
      timeSteps: 200,
    });
  }

  /** Spheres of 1.6 cells on a 5-cell pitch over the whole grid, absorbers included. */
  function lattice(direction: Vec3): SimulationSpec {
    const size = cells * step;
    const structures: StructureSpec[] = [];
    const pitch = 5 * step;
    for (let i = 0; i < 6; i++) {
      for (let j = 0; j < 6; j++) {
        for (let k = 0; k < 6; k++) {
          const at = (n: number) => -size / 2 + (n + 0.3) * pitch;
          structures.push({
            type: "sphere",
            center: [at(i), at(j), at(k)],
            radius: 1.6 * step,
            material: (i + j + k) % 2 === 0 ? "glass" : "lossy",
          });
        }
      }
    }
    return grid(direction, structures);
  }

  it("a grid whose mixed pieces would not fit in the kernel's memory runs without them", async () => {
    // The mixed pieces are a speed-up only (engine.ts). Glass layers five cells thick and five
    // apart across the rows: as plain pieces 16 bytes per five cells, merged into mixed pieces 6 bytes per cell,
    // so here the mixed pieces' plan is the larger. With a limit between the two plans' sizes
    // the engine builds the plain pieces, and the fields are the same bit for bit; with a limit
    // below both it refuses the grid, naming both sizes.
    const size = cells * step;
    const structures: StructureSpec[] = [];
    for (let n = 0; 5 * n < cells + 2 * pml; n += 2) {
      structures.push({
        type: "box",
        center: [0, 0, -size / 2 + (5 * n - pml + 2.5) * step],
        size: [1, 1, 5 * step],
        material: "glass",
      });
    }
    const spec = grid([0, 0, 1], structures);
    const run = async (options: { mixedPieces?: boolean; memoryLimitBytes?: number }) => {
      const sim = new FdtdSimulation(spec, materials, {
        threads: 2,
        minCellsPerThread: 0,
        ...options,
      });
      await sim.prepare();
      try {
        const engine = sim.stepper as unknown as FastEngine;
        while (sim.stepIndex < 200) sim.step(200);
        return {
          bytes: engine.memoryPlan.totalBytes,
          mixedCells: engine.pieces.mixedCells,
          fields: await sim.fields(),
        };
      } finally {
        sim.dispose();
      }
    };
    const mixed = await run({});
    const plain = await run({ mixedPieces: false });
    assert.ok(
      mixed.mixedCells > 0 && plain.bytes < mixed.bytes,
      `mixed cells ${mixed.mixedCells}; plans ${plain.bytes} (plain), ${mixed.bytes} (mixed)`,
    );
    const fallback = await run({ memoryLimitBytes: (plain.bytes + mixed.bytes) / 2 });
    assert.equal(fallback.mixedCells, 0);
    assert.equal(fallback.bytes, plain.bytes);
    let peak = 0;
    for (let comp = 0; comp < 6; comp++) {
      const a = mixed.fields[0].c[comp];
      const b = fallback.fields[0].c[comp];
      for (let p = 0; p < a.length; p++) {
        peak = Math.max(peak, Math.abs(a[p]));
        if (!Object.is(a[p], b[p])) assert.fail(`component ${comp}, cell ${p}: ${a[p]} vs ${b[p]}`);
      }
    }
    assert.ok(peak > 1e-2, `peak ${peak}`);
    await assert.rejects(
      run({ memoryLimitBytes: plain.bytes - 1 }),
      /the grid needs [\d.]+ GiB of kernel memory; the fast kernel's WebAssembly memory holds at most [\d.]+ GiB/,
    );
  });

  for (const [name, direction] of [
    ["normal incidence, pml on every face", [0, 0, 1]],
    ["oblique incidence (complex fields)", [0.3, 0.2, 1]],
  ] as [string, Vec3][]) {
    it(`mixed pieces give the same fields bit for bit: ${name}`, async () => {
      const spec = lattice(direction);
      const fields = [];
      for (const mixedPieces of [true, false]) {
        const sim = new FdtdSimulation(spec, materials, {
          threads: 3,
          minCellsPerThread: 0,
          mixedPieces,
        });
        await sim.prepare();
        try {
          const engine = sim.stepper as unknown as FastEngine;
          const { pieces, mixedCells } = engine.pieces;
          let mixed = 0;
          for (let w = 0; w < pieces.length; w += 4) if (pieces[w] & MIXED_PIECE) mixed++;
          if (mixedPieces) {
            // Most of this grid is interface: the mixed pieces must be doing the work.
            assert.ok(mixed > 300 && mixedCells > 0.3 * cells ** 3, `${mixed}, ${mixedCells}`);
          } else {
            assert.equal(mixed + mixedCells, 0);
          }
          while (sim.stepIndex < 200) sim.step(200);
          fields.push(await sim.fields());
        } finally {
          sim.dispose();
        }
      }
      const [withMixed, without] = fields;
      assert.equal(withMixed.length, direction[0] === 0 ? 1 : 2);
      for (let set = 0; set < withMixed.length; set++) {
        let peak = 0;
        for (let comp = 0; comp < 6; comp++) {
          const a = withMixed[set].c[comp];
          const b = without[set].c[comp];
          for (let p = 0; p < a.length; p++) {
            peak = Math.max(peak, Math.abs(a[p]));
            if (!Object.is(a[p], b[p])) {
              assert.fail(`set ${set}, component ${comp}, cell ${p}: ${a[p]} vs ${b[p]}`);
            }
          }
        }
        // The wave has arrived (a zero grid would match trivially).
        assert.ok(peak > 1e-2, `peak ${peak}`);
      }
    });
  }
});
