/**
 * The perfect electric conductor (materials.ts's PEC; medium.ts holds E at zero in its cells).
 * - Painting: an E component whose sample point lies inside PEC or on its surface takes the
 *   conductor's coefficients ca = cb = 0, on uniform and graded grids; a structure painted over
 *   it takes back only points strictly inside it, so a face shared with a dielectric stays PEC
 *   whichever was painted first.
 * - A plane wave at normal incidence on a PEC slab, over 0.8–1.25 µm: the exact answer is
 *   r = −1 at the surface, so R = 1, T = 0, and in front of the mirror the total field is the
 *   standing wave E = 2i·E0·e^{ik·z_s}·sin(k(z − z_s)), whose zeros lie at z_s − mλ/2. The
 *   solver must give R = 1 within 0.5 %, T < 1e-6, and zeros within a cell of z_s − mλ/2 (a
 *   reflection of +1, a PMC's, would put antinodes there).
 * - In 3-D, every E value whose sample point lies in a PEC box or sphere is exactly 0 after
 *   the pulse has passed them, and a field monitor inside the box reads exactly 0.
 * Every check runs on every backend (testing/backends.ts); wasm/agreement.test.ts and
 * webgpu/agreement.test.ts compare whole runs with a PEC plate against the reference backend.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { domainFaces, shapeOf } from "./geometry.js";
import { YeeLayout, planGrid, positionM, staggerOf, type GridPlan } from "./grid.js";
import { PERFECT_CONDUCTOR, buildMedium, type UpdateMaterial } from "./medium.js";
import type { Medium } from "./medium-types.js";
import { FdtdSimulation } from "./simulation.js";
import { forEachBackend, runOn } from "./testing/backends.js";
import { boxSpec, constantMaterials, fluxPlane, lineSpec, slab } from "./testing/index.js";
import type { BoxSpec, DomainSpec, FluxMonitorResult, SphereSpec, Vec3 } from "./types.js";

const WAVELENGTH = 1e-6;
const materials = constantMaterials({ glass: 4 });

describe("PEC painting: a staircase by sample point", () => {
  const H = 20e-9;
  /** A z line of 40 cells (1 × 1 periodic cross-section), optionally graded. */
  const line = (meshOverrides: DomainSpec["mesh_overrides"] = []): DomainSpec => ({
    size: [H, H, 40 * H],
    resolution: H,
    boundary_conditions: ["periodic", "periodic", "pml"],
    pml_layers: 8,
    ...(meshOverrides.length > 0 ? { mesh_overrides: meshOverrides, max_step_ratio: 2 } : {}),
  });
  const GLASS: UpdateMaterial = { epsRe: 4, sigma: 0 };

  /** Paints `structures` (each a z slab [from, to] in cells) and reads one component along z. */
  function paint(domain: DomainSpec, slabs: [number, number, UpdateMaterial][]) {
    const plan = planGrid(domain, 0.99);
    const layout = YeeLayout.ofPlan(plan);
    const faces = domainFaces(plan);
    const medium = buildMedium(
      plan,
      layout,
      { epsRe: 1, sigma: 0 },
      slabs.map(([from, to, material]) => ({
        shape: shapeOf(slab(2, from * H, to * H, "m"), faces),
        material,
      })),
    );
    return { plan, layout, medium };
  }

  /** The table entry of component c at the sample point z (metres) of the line. */
  function entryAt(
    { plan, layout, medium }: { plan: GridPlan; layout: YeeLayout; medium: Medium },
    c: number,
    zM: number,
  ): { conductor: boolean; eps: number } {
    const ax = plan.axes[2];
    for (let k = 0; k <= layout.n[2]; k++) {
      if (Math.abs(positionM(ax, k, staggerOf(c, 2)) - zM) < 1e-6 * H) {
        const m = medium.index[c][layout.index(0, 0, k)];
        // ca = cb = 0 is the conductor: nothing else has cb = 0.
        return { conductor: medium.ca[m] === 0 && medium.cb[m] === 0, eps: medium.epsEff[m] };
      }
    }
    throw new Error(`no sample of component ${c} at z = ${zM}`);
  }

  it("tangential E on a face lying on a grid plane is PEC, normal E inside it too, nothing outside", () => {
    const p = paint(line(), [[0, 10, PERFECT_CONDUCTOR]]);
    for (const c of [0, 1]) {
      assert.ok(entryAt(p, c, 0).conductor, `E${"xy"[c]} on the face`);
      assert.ok(entryAt(p, c, 5 * H).conductor && entryAt(p, c, 10 * H).conductor);
      assert.ok(!entryAt(p, c, -H).conductor && !entryAt(p, c, 11 * H).conductor);
      assert.equal(entryAt(p, c, -H).eps, 1);
    }
    assert.ok(entryAt(p, 2, 0.5 * H).conductor && entryAt(p, 2, 9.5 * H).conductor);
    assert.ok(!entryAt(p, 2, -0.5 * H).conductor && !entryAt(p, 2, 10.5 * H).conductor);
    // Vacuum beside the conductor is not averaged with it (no ε between 1 and ∞ appears).
    assert.equal(entryAt(p, 2, -0.5 * H).eps, 1);
  });

  it("a face between grid planes: the samples inside it are PEC", () => {
    const p = paint(line(), [[0.3, 10, PERFECT_CONDUCTOR]]);
    assert.ok(!entryAt(p, 1, 0).conductor && entryAt(p, 1, H).conductor);
    assert.ok(!entryAt(p, 2, -0.5 * H).conductor && entryAt(p, 2, 0.5 * H).conductor);
  });

  it("a dielectric sharing the face leaves it PEC, painted before or after; inside it, it wins", () => {
    for (const order of ["after", "before"]) {
      const spacer: [number, number, UpdateMaterial] = [-4, 0, GLASS];
      const conductor: [number, number, UpdateMaterial] = [0, 10, PERFECT_CONDUCTOR];
      const p = paint(line(), order === "after" ? [conductor, spacer] : [spacer, conductor]);
      assert.ok(entryAt(p, 1, 0).conductor, `the face, spacer painted ${order}`);
      assert.equal(entryAt(p, 1, -H).eps, 4, order);
      assert.equal(entryAt(p, 2, -0.5 * H).eps, 4, order);
      assert.ok(!entryAt(p, 1, -H).conductor);
    }
    // A dielectric painted over part of the conductor takes the samples strictly inside it.
    const p = paint(line(), [
      [0, 10, PERFECT_CONDUCTOR],
      [-4, 2, GLASS],
    ]);
    assert.equal(entryAt(p, 1, H).eps, 4);
    assert.ok(!entryAt(p, 1, H).conductor && !entryAt(p, 2, 1.5 * H).conductor);
    assert.ok(entryAt(p, 1, 2 * H).conductor && entryAt(p, 2, 2.5 * H).conductor);
  });

  it("on a graded grid the sample point decides, not how much of its cell the conductor fills", () => {
    // Cells of H/3 inside the conductor's first 2H and up to twice that outside: the node on
    // the face has less than half of its (asymmetric) cell in the conductor, yet it is on the
    // conductor's surface, so tangential E there must be zero for the mirror to sit at z = 0.
    const p = paint(line([{ center: [0, 0, H], size: [H, H, 2 * H], resolution: H / 3 }]), [
      [0, 10, PERFECT_CONDUCTOR],
    ]);
    const ax = p.plan.axes[2];
    const k = Array.from(ax.nodesM).findIndex((z) => Math.abs(z) < 1e-6 * H);
    const inside = ax.nodesM[k + 1] - ax.nodesM[k];
    const outside = ax.nodesM[k] - ax.nodesM[k - 1];
    assert.ok(inside / (inside + outside) < 0.45, `fill ${inside / (inside + outside)}`);
    assert.ok(entryAt(p, 1, 0).conductor);
    assert.ok(!entryAt(p, 1, ax.nodesM[k - 1]).conductor);
    assert.ok(entryAt(p, 2, (ax.nodesM[k] + ax.nodesM[k + 1]) / 2).conductor);
  });
});

describe("a plane wave on a PEC mirror at normal incidence", () => {
  const STEP = 20e-9;
  const LENGTH = 3e-6;
  /** The mirror's face, a grid plane, and its back. */
  const FACE = 0.4e-6;
  const BACK = 0.8e-6;
  const BAND = { start: 0.8e-6, stop: 1.25e-6, points: 5 };
  /** The standing wave is recorded on cell centres from here to the face. */
  const LINE_FROM = -1.2e-6;

  function mirrorSpec() {
    return lineSpec({
      axis: 2,
      wavelengthM: WAVELENGTH,
      stepM: STEP,
      lengthM: LENGTH,
      structures: [slab(2, FACE, BACK, "PEC")],
      monitors: [
        // Upstream of the source plane: the reflected wave alone.
        fluxPlane("R", 2, -LENGTH / 2 + STEP, BAND),
        fluxPlane("T", 2, 1.2e-6, BAND),
        {
          name: "standing",
          monitor_type: "field",
          center: [0, 0, (LINE_FROM + FACE) / 2],
          size: [0, 0, FACE - LINE_FROM],
          components: ["Ey"],
        },
      ],
      threshold: 1e-7,
    });
  }

  /**
   * The zeros of the standing wave along the line: its phasor divided by the phase of its
   * largest sample is real up to round-off (sin(k(z − z_s)) times a constant), so its sign
   * changes bracket the zeros, placed by linear interpolation.
   */
  function zerosOf(z: Float64Array, data: Float32Array): number[] {
    let peak = 0;
    for (let i = 0; i < z.length; i++) {
      if (Math.hypot(data[2 * i], data[2 * i + 1]) > Math.hypot(data[2 * peak], data[2 * peak + 1]))
        peak = i;
    }
    const phase = Math.atan2(data[2 * peak + 1], data[2 * peak]);
    const real = Array.from(z, (_, i) => {
      const [re, im] = [data[2 * i], data[2 * i + 1]];
      return re * Math.cos(phase) + im * Math.sin(phase);
    });
    const zeros: number[] = [];
    for (let i = 1; i < real.length; i++) {
      if (real[i - 1] === 0 || real[i] === 0 || real[i - 1] > 0 === real[i] > 0) continue;
      const t = real[i - 1] / (real[i - 1] - real[i]);
      zeros.push(z[i - 1] + t * (z[i] - z[i - 1]));
    }
    return zeros;
  }

  forEachBackend((backend) => {
    it("R = 1 within 0.5 % and T < 1e-6 over 0.8–1.25 µm; the standing wave's zeros at mλ/2 from the face, within a cell", async (t) => {
      const result = await runOn(backend, mirrorSpec(), materials);
      const flux = (name: string): FluxMonitorResult => {
        const m = result.fluxMonitors.find((x) => x.name === name);
        assert.ok(m, name);
        return m;
      };
      const R = Array.from(flux("R").flux);
      const T = Array.from(flux("T").flux);
      t.diagnostic(
        `R − 1: ${R.map((r) => (r - 1).toExponential(1)).join(", ")}; ` +
          `|T| ≤ ${Math.max(...T.map(Math.abs)).toExponential(1)}`,
      );
      for (const [i, r] of R.entries()) assert.ok(Math.abs(r - 1) < 0.005, `R[${i}] = ${r}`);
      for (const [i, x] of T.entries()) assert.ok(Math.abs(x) < 1e-6, `T[${i}] = ${x}`);

      const line = result.monitors.find((m) => m.name === "standing")!;
      const zeros = zerosOf(line.z, line.data.Ey!);
      // In front of the face: z_s − λ/2, z_s − λ, z_s − 3λ/2 from 0.4 µm back to −1.2 µm.
      const expected = [3, 2, 1].map((m) => FACE - (m * WAVELENGTH) / 2);
      t.diagnostic(
        `zeros at ${zeros.map((z) => (z * 1e6).toFixed(4)).join(", ")} µm; ` +
          `expected ${expected.map((z) => (z * 1e6).toFixed(4)).join(", ")}`,
      );
      assert.equal(zeros.length, expected.length, `zeros at ${zeros}`);
      for (const [m, z] of zeros.entries()) {
        assert.ok(Math.abs(z - expected[m]) < STEP, `zero ${m}: ${z} vs ${expected[m]}`);
      }
      // The node on the face itself: the field rises linearly from it, so the first two
      // samples in front extrapolate to zero within a cell of the face; inside it is 0.
      const data = line.data.Ey!;
      const abs = (i: number) => Math.hypot(data[2 * i], data[2 * i + 1]);
      const last = line.z.length - 1;
      const [z1, z0] = [line.z[last - 1], line.z[last]];
      const atZero = z0 + (abs(last) * (z0 - z1)) / (abs(last - 1) - abs(last));
      t.diagnostic(`the field in front of the face extrapolates to zero at ${atZero * 1e6} µm`);
      assert.ok(Math.abs(atZero - FACE) < STEP, `${atZero}`);
      // The crests between the zeros: |E| = 2 (amplitude 1 incident plus its full reflection).
      const crest = Math.max(...Array.from(line.z, (_, i) => abs(i)));
      assert.ok(Math.abs(crest - 2) < 0.01, `crest |E| = ${crest}`);
    });
  });
});

describe("fields inside PEC", () => {
  const H = 50e-9;
  const BOX: BoxSpec = {
    type: "box",
    center: [0, 0, -3 * H],
    size: [6 * H, 6 * H, 4 * H],
    material: "PEC",
  };
  const SPHERE: SphereSpec = {
    type: "sphere",
    center: [H, 0, 4 * H],
    radius: 2.5 * H,
    material: "pec",
  };
  const STEPS = 300;

  function spec() {
    return boxSpec({
      sizeM: [14 * H, 14 * H, 20 * H],
      stepM: H,
      wavelengthM: WAVELENGTH,
      structures: [BOX, SPHERE],
      monitors: [
        {
          name: "inside",
          monitor_type: "field",
          center: [0, 0, -3 * H],
          size: [4 * H, 4 * H, 2 * H],
          components: ["Ex", "Ey", "Ez", "Hx", "Hy", "Hz"],
        },
      ],
      timeSteps: STEPS,
    });
  }

  /** Whether p lies in the box or the sphere, surfaces included (to 1e-9 of a cell). */
  function inConductor(p: Vec3): boolean {
    const tol = 1e-9 * H;
    const inBox = [0, 1, 2].every((a) => Math.abs(p[a] - BOX.center[a]) <= BOX.size[a] / 2 + tol);
    const r = Math.hypot(p[0] - SPHERE.center[0], p[1] - SPHERE.center[1], p[2] - SPHERE.center[2]);
    return inBox || r <= SPHERE.radius + tol;
  }

  forEachBackend((backend) => {
    it("every E value sampled in a PEC box or sphere is exactly 0, and a monitor inside reads 0", async (t) => {
      const sim = new FdtdSimulation(spec(), materials, { backend });
      await sim.prepare();
      try {
        while (sim.stepIndex < STEPS) sim.step(STEPS);
        const sets = await sim.fields();
        const { layout } = sim.model;
        let inside = 0;
        let largestInside = 0;
        let largestOutside = 0;
        const p: Vec3 = [0, 0, 0];
        for (const set of sets) {
          for (let c = 0; c < 3; c++) {
            const lo = [0, 1, 2].map((a) => layout.lo[c * 3 + a]);
            const hi = [0, 1, 2].map((a) => layout.hi[c * 3 + a]);
            for (let i = lo[0]; i <= hi[0]; i++) {
              for (let j = lo[1]; j <= hi[1]; j++) {
                for (let k = lo[2]; k <= hi[2]; k++) {
                  [i, j, k].forEach(
                    (n, a) => (p[a] = positionM(sim.plan.axes[a], n, staggerOf(c, a))),
                  );
                  const v = Math.abs(set.c[c][layout.index(i, j, k)]);
                  if (inConductor(p)) {
                    inside++;
                    largestInside = Math.max(largestInside, v);
                  } else {
                    largestOutside = Math.max(largestOutside, v);
                  }
                }
              }
            }
          }
        }
        t.diagnostic(
          `${inside} E samples in the conductors, largest |E| ${largestInside}; ` +
            `largest outside ${largestOutside.toExponential(2)}`,
        );
        assert.ok(inside > 400, `${inside} samples inside`);
        assert.ok(largestOutside > 0.1, "the pulse has reached the conductors");
        assert.equal(largestInside, 0);
      } finally {
        sim.dispose();
      }

      const result = await runOn(backend, spec(), materials);
      const monitor = result.monitors[0];
      for (const c of ["Ex", "Ey", "Ez"] as const) {
        assert.ok(
          monitor.data[c]!.every((v) => v === 0),
          `${c} inside the box`,
        );
      }
      // H is not zero there (it may hold a static part), but the monitor recorded it.
      assert.ok(monitor.data.Hx !== undefined);
    });
  });
});
