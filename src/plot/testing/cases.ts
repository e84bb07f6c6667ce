/**
 * The inputs of the plotting core's regression tests (src/plot/core.test.ts): ranges for the
 * ticks and synthetic field maps with structures for the CLI's PNGs. The references in
 * fixtures/ were written from these by the CLI's plotting code before the dashboard's plots
 * moved onto it.
 */
import type { FieldPlotOptions } from "../field-plot.js";
import type { FieldMap } from "../../results/read.js";
import type { StructureSpec } from "../../solver/index.js";

/** [min, max, target] of axes and colour bars: µm spans, field values, odd and degenerate. */
export const TICK_CASES: [number, number, number][] = [
  [0, 1, 5],
  [-1.4, 1.4, 5],
  [0, 1.05, 4],
  [-0.34, 0.34, 3],
  [-1.02, 1.02, 8],
  [0, 1.8342, 5],
  [-2.37e-3, 2.37e-3, 5],
  [0, 7.1e-5, 5],
  [1.2e5, 3.4e5, 4],
  [-0.98, 0.98, 9],
  [3.3, 9.7, 6],
  [0, 0.00123, 3],
  [1, 1, 5],
];

function axis(n: number, start: number, span: number): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => start + (span * i) / Math.max(1, n - 1));
}

/** A field map over x (−1…1 µm) and z (−0.5…1 µm); `nu` or `nv` of 1 makes a line. */
export function syntheticMap(nu: number, nv: number): FieldMap {
  const u = axis(nu, -1e-6, 2e-6);
  const v = axis(nv, -0.5e-6, 1.5e-6);
  const re = new Float32Array(nu * nv);
  const im = new Float32Array(nu * nv);
  for (let i = 0; i < nu; i++) {
    for (let j = 0; j < nv; j++) {
      const x = u[i]!;
      const z = v[j]!;
      re[i * nv + j] = Math.cos(x * 3e6) * Math.cos(z * 5e6) * (1 + x * 2e5);
      im[i * nv + j] = Math.sin(z * 4e6) * 0.6;
    }
  }
  return {
    monitor: "xz",
    component: "Ey",
    wavelengthM: 1.55e-6,
    axes: ["x", "z"],
    u,
    v,
    re,
    im,
    fullShape: [nu, nv],
    slice: null,
  };
}

/** One structure of each kind, a later one overlapping an earlier (it wins). */
export const STRUCTURES: StructureSpec[] = [
  { type: "box", center: [0, 0, 0.25e-6], size: [1e-6, 1, 0.5e-6], material: "Si" },
  { type: "sphere", center: [-0.5e-6, 0, 0.5e-6], radius: 0.3e-6, material: "SiO2" },
  {
    type: "cylinder",
    center: [0.5e-6, 0, 0],
    radius: 0.2e-6,
    height: 0.8e-6,
    axis: "z",
    material: "Si3N4",
  },
  {
    type: "cylinder",
    center: [0, 0.1e-6, -0.2e-6],
    radius: 0.15e-6,
    height: 2e-6,
    axis: "y",
    material: "Si",
  },
];

/** The CLI plots pinned by fixtures/cli-*.png. */
export const PLOT_CASES: { name: string; map: () => FieldMap; options: FieldPlotOptions }[] = [
  {
    name: "cli-heatmap-abs",
    map: () => syntheticMap(48, 36),
    options: { part: "abs", size: 300, geometry: { structures: STRUCTURES, fixed: { y: 0 } } },
  },
  {
    name: "cli-heatmap-real",
    map: () => syntheticMap(48, 36),
    options: { part: "real", size: 300, geometry: { structures: STRUCTURES, fixed: { y: 0 } } },
  },
  {
    name: "cli-line-imag",
    map: () => syntheticMap(60, 1),
    options: {
      part: "imag",
      size: 260,
      geometry: { structures: STRUCTURES, fixed: { y: 0, z: 0.2e-6 } },
    },
  },
];
