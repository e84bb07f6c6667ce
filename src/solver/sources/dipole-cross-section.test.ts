/**
 * A point dipole in a cross-section (periodic, one cell thick along y: a row of dipoles, the
 * 2-D line source) and in a column (one periodic cell across x and y: a sheet of them, a plane
 * wave either way). A box around it reads its power over the same row's or sheet's in vacuum
 * (dipole-vacuum-power.ts): 1 in vacuum for every moment that radiates. In a uniform medium of
 * index n a 2-D line's power goes as η·k for an electric moment, independent of n (ωμ0·I²/8
 * per length along the row), and as k/η for a magnetic one, n².
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ETA0 } from "../constants.js";
import { checkSimulation } from "../entry-points.js";
import { runWithMaterials } from "../run.js";
import { constantMaterials } from "../testing/index.js";
import type { FieldComponent, MonitorSpec, SimulationSpec, StructureSpec } from "../types.js";

const H = 1e-6 / 30;
const BAND = [0.9e-6, 1e-6, 1.1e-6];
const MATERIALS = constantMaterials({ glass: { re: 2.25, im: 0 } });

function spec(
  polarization: FieldComponent,
  column: boolean,
  structures: StructureSpec[] = [],
): SimulationSpec {
  const box: MonitorSpec = {
    name: "box",
    monitor_type: "flux",
    center: [0, 0, 0],
    size: column ? [H, H, 0.8e-6] : [0.6e-6, H, 0.6e-6],
    wavelengths: BAND,
  };
  return {
    solver: "fdtd",
    domain: {
      size: column ? [H, H, 1.6e-6] : [1e-6, H, 1e-6],
      resolution: H,
      boundary_conditions: column ? ["periodic", "periodic", "pml"] : ["pml", "periodic", "pml"],
      pml_layers: 12,
    },
    source: {
      source_type: "point_dipole",
      wavelength: 1e-6,
      center: [0, 0, 0],
      polarization,
      amplitude: 1e-8,
    },
    structures,
    monitors: [box],
    fdtd_settings: {
      time_steps: 100000,
      courant_factor: 0.99,
      convergence_threshold: 1e-6,
      check_every_n: 100,
    },
  };
}

async function boxPower(s: SimulationSpec): Promise<{ ratio: number[]; watts: number[] }> {
  const r = await runWithMaterials(s, MATERIALS, { backend: "wasm" });
  const f = r.fluxMonitors[0]!;
  return { ratio: [...f.flux], watts: [...f.powerW!] };
}

const GLASS: StructureSpec[] = [
  { type: "box", center: [0, 0, 0], size: [10, 10, 10], material: "glass" },
];

describe("a point dipole in a cross-section and in a column", () => {
  it("in vacuum a box reads 1 for every moment that radiates, in the row's and the sheet's watts", async () => {
    const k0 = (w: number) => (2 * Math.PI) / w;
    const cases: [FieldComponent, boolean, (w: number) => number][] = [
      ["Ey", false, (w) => (ETA0 * k0(w) * 1e-16) / (8 * H)], // along the row
      ["Ez", false, (w) => (ETA0 * k0(w) * 1e-16) / (16 * H)], // across it
      ["Hy", false, (w) => (k0(w) * 1e-16) / (8 * H * ETA0)],
      ["Ex", true, () => (ETA0 * 1e-16) / (4 * H * H)], // in the sheet
      ["Hy", true, () => 1e-16 / (4 * H * H * ETA0)],
    ];
    for (const [polarization, column, vacuumW] of cases) {
      const { ratio, watts } = await boxPower(spec(polarization, column));
      const what = `${polarization} in a ${column ? "column" : "cross-section"}`;
      for (const [w, wl] of BAND.entries()) {
        assert.ok(Math.abs(ratio[w]! - 1) < 0.01, `${what} at ${wl}: ${ratio[w]}`);
        const expected = ratio[w]! * vacuumW(wl);
        assert.ok(Math.abs(watts[w]! / expected - 1) < 1e-9, `${what}: ${watts[w]} W`);
      }
    }
  });

  it("in glass (n = 1.5) an electric moment's line reads 1, a magnetic one's n²", async () => {
    const electric = await boxPower(spec("Ey", false, GLASS));
    const magnetic = await boxPower(spec("Hy", false, GLASS));
    for (const w of BAND.keys()) {
      assert.ok(Math.abs(electric.ratio[w]! - 1) < 0.02, `Ey: ${electric.ratio[w]}`);
      assert.ok(Math.abs(magnetic.ratio[w]! - 2.25) < 0.05, `Hy: ${magnetic.ratio[w]}`);
    }
  });

  it("a moment along a column radiates nothing and is refused; one across it is not", () => {
    const problems = checkSimulation(spec("Ez", true));
    assert.deepEqual(
      problems.map((p) => p.path),
      ["source.polarization"],
    );
    assert.match(
      problems[0]!.message,
      /one periodic cell across x and y, so the dipole and its images form a sheet.*Ez radiates nothing: use Ex or Ey/,
    );
    assert.deepEqual(checkSimulation(spec("Hx", true)), []);
  });

  it("a far-field monitor is a line's in the cross-section (far-field-cross-section.test.ts), refused in the column", () => {
    for (const column of [false, true]) {
      const s = spec("Ex", column);
      const box = s.monitors[0]!;
      s.monitors.push({
        ...box,
        name: "far",
        monitor_type: "far_field",
        theta_deg: [0, 90],
        phi_deg: [0],
      } as MonitorSpec);
      const problems = checkSimulation(s);
      if (!column) {
        assert.deepEqual(problems, []);
        continue;
      }
      assert.deepEqual(
        problems.map((p) => p.path),
        ["monitors[1].monitor_type"],
      );
      assert.match(problems[0]!.message, /1-D column\), whose fields are a sheet's plane waves/);
    }
  });
});
