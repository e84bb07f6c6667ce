/**
 * The point dipole against the continuum: the power out of a closed box over the power the
 * same dipole radiates in vacuum (1 in vacuum, n in a medium of index n: the Purcell factor of
 * a homogeneous medium), the near field at a point (the monitors' normalisation to the
 * dipole's moment, in magnitude and phase), and the backends' agreement. The dipoles sit at
 * the origin on three mirror planes, so the grid is an eighth of the box; the parity of each
 * plane is what checks/point-dipole.ts asks for, so a wrong parity rule reads a wrong power.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ETA0 } from "../constants.js";
import { runWithMaterials } from "../run.js";
import { constantMaterials } from "../testing/index.js";
import type {
  FieldComponent,
  MonitorSpec,
  SimulationSpec,
  StructureSpec,
  Symmetry,
} from "../types.js";

const LAMBDA = 1e-6;
const BAND = { start: 0.85e-6, stop: 1.15e-6, points: 4 };
const MATERIALS = constantMaterials({ glass: { re: 2.25, im: 0 } });

/** Each axis' parity for a dipole at the origin: electric along an axis odd (pec), across even. */
function symmetryFor(polarization: FieldComponent): [Symmetry, Symmetry, Symmetry] {
  const magnetic = polarization.startsWith("H");
  return [0, 1, 2].map((a) => (polarization.endsWith("xyz"[a]!) !== magnetic ? "pec" : "pmc")) as [
    Symmetry,
    Symmetry,
    Symmetry,
  ];
}

function dipoleSpec(
  polarization: FieldComponent,
  stepM: number,
  monitors: MonitorSpec[],
  structures: StructureSpec[] = [],
  symmetric = true,
): SimulationSpec {
  return {
    solver: "fdtd",
    domain: {
      size: [1e-6, 1e-6, 1e-6],
      resolution: stepM,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 12,
      ...(symmetric ? { symmetry: symmetryFor(polarization) } : {}),
    },
    source: {
      source_type: "point_dipole",
      wavelength: LAMBDA,
      center: [0, 0, 0],
      polarization,
      amplitude: 1,
    },
    structures,
    monitors,
    fdtd_settings: {
      time_steps: 20000,
      courant_factor: 0.99,
      convergence_threshold: 1e-6,
      check_every_n: 200,
    },
  };
}

const box: MonitorSpec = {
  name: "box",
  monitor_type: "flux",
  center: [0, 0, 0],
  size: [0.6e-6, 0.6e-6, 0.6e-6],
  wavelengths: BAND,
};

async function boxPower(spec: SimulationSpec): Promise<{ ratio: number[]; watts: number[] }> {
  const r = await runWithMaterials(spec, MATERIALS, { backend: "wasm" });
  const f = r.fluxMonitors[0]!;
  assert.equal(f.quantity, "power");
  return { ratio: Array.from(f.flux), watts: Array.from(f.powerW!) };
}

describe("point dipole: power out of a closed box", () => {
  it("an electric dipole in vacuum reads 1 within 1 % across a ±15 % band", async () => {
    const { ratio, watts } = await boxPower(dipoleSpec("Ez", LAMBDA / 30, [box]));
    ratio.forEach((p) => assert.ok(Math.abs(p - 1) < 0.01, `P/P0 = ${ratio.join(", ")}`));
    // In watts: η0·k0²·(1 A·m)²/(12π) at λ = 0.85 µm (the band's first wavelength).
    const k0 = (2 * Math.PI) / BAND.start;
    const expected = (ETA0 * k0 * k0) / (12 * Math.PI);
    assert.ok(Math.abs(watts[0]! / expected - ratio[0]!) < 1e-9 * ratio[0]!);
  });

  it("the moment scales the power as its square, and P/P0 not at all", async () => {
    const spec = dipoleSpec("Ez", LAMBDA / 20, [{ ...box, wavelengths: [LAMBDA] }]);
    const one = await boxPower(spec);
    (spec.source as { amplitude: number }).amplitude = 3e-4;
    const small = await boxPower(spec);
    assert.ok(
      Math.abs(small.ratio[0]! / one.ratio[0]! - 1) < 1e-6,
      `${small.ratio} vs ${one.ratio}`,
    );
    assert.ok(Math.abs(small.watts[0]! / (9e-8 * one.watts[0]!) - 1) < 1e-6, `${small.watts}`);
  });

  it("a moment whose near field's square passes float32's range runs, and reads as a small one", async () => {
    // A 2-D run (one 5 nm cell thick, periodic) of 1 A·m: about 4e19 V/m near the source,
    // whose square is past float32's 3.4e38. The fields are not; their energy, squared in
    // float32, was, and the run failed as "diverged" at step 2 800 (1e-3 A·m read 1.00006).
    const spec = dipoleSpec("Ez", 5e-9, [
      {
        ...box,
        size: [0.6e-6, 5e-9, 0.6e-6],
        wavelengths: { start: 0.8e-6, stop: 1.3e-6, points: 3 },
      },
    ]);
    spec.domain = {
      size: [0.8e-6, 5e-9, 0.8e-6],
      resolution: 5e-9,
      boundary_conditions: ["pml", "periodic", "pml"],
      pml_layers: 12,
    };
    spec.fdtd_settings = { ...spec.fdtd_settings, time_steps: 3200, convergence_threshold: 0 };
    const strong = await boxPower(spec);
    (spec.source as { amplitude: number }).amplitude = 1e-3;
    const weak = await boxPower(spec);
    strong.ratio.forEach((p, i) =>
      assert.ok(Math.abs(p / weak.ratio[i]! - 1) < 1e-5, `${strong.ratio} vs ${weak.ratio}`),
    );
  });

  it("a magnetic dipole in vacuum reads 1 within 1 %", async () => {
    const { ratio } = await boxPower(dipoleSpec("Hx", LAMBDA / 30, [box]));
    ratio.forEach((p) => assert.ok(Math.abs(p - 1) < 0.01, `P/P0 = ${ratio.join(", ")}`));
  });

  it("in a medium of index 1.5 it reads 1.5 within 1.5 % (the Purcell factor of the medium)", async () => {
    const medium: StructureSpec = {
      type: "box",
      center: [0, 0, 0],
      size: [10, 10, 10],
      material: "glass",
    };
    const { ratio } = await boxPower(dipoleSpec("Ey", LAMBDA / 30, [box], [medium]));
    ratio.forEach((p) => assert.ok(Math.abs(p / 1.5 - 1) < 0.015, `P/P0 = ${ratio.join(", ")}`));
  });
});

it("point dipole: the near field at 0.4 λ is the analytic dipole's, in magnitude and phase", async () => {
  // E_z on the x axis of a current element I·ℓ along z (e^{−iωt}):
  // E_z = (iηk·Iℓ/4πr)·(1 + i/(kr) − 1/(kr)²)·e^{ikr}.
  const k = (2 * Math.PI) / LAMBDA;
  const analytic = (r: number) => {
    const kr = k * r;
    const [br, bi] = [1 - 1 / (kr * kr), 1 / kr];
    const s = (ETA0 * k) / (4 * Math.PI * r);
    // i·(br + i·bi)·e^{ikr}
    const [pr, pi] = [-bi * s, br * s];
    return { re: pr * Math.cos(kr) - pi * Math.sin(kr), im: pr * Math.sin(kr) + pi * Math.cos(kr) };
  };
  const step = LAMBDA / 30;
  const points = [0.4e-6, 0.3e-6];
  const monitors: MonitorSpec[] = points.map((x, i) => ({
    name: `p${i}`,
    monitor_type: "field",
    center: [x, 0, 0],
    size: [0, 0, 0],
    components: ["Ez"],
  }));
  const r = await runWithMaterials(dipoleSpec("Ez", step, monitors), MATERIALS, {
    backend: "wasm",
  });
  points.forEach((_, i) => {
    const d = r.monitors[i]!.data.Ez!;
    const got = { re: d[0]!, im: d[1]! };
    // The sample sits at the cell centre nearest x along x: compare there.
    const at = r.monitors[i]!.x[0]!;
    const want = analytic(at);
    const mag = Math.hypot(got.re, got.im) / Math.hypot(want.re, want.im);
    const phase = Math.atan2(
      got.im * want.re - got.re * want.im,
      got.re * want.re + got.im * want.im,
    );
    assert.ok(Math.abs(mag - 1) < 0.02, `|E_z(${at})| ratio ${mag}`);
    assert.ok(Math.abs(phase) < 0.03, `E_z(${at}) phase off by ${phase} rad`);
  });
});
