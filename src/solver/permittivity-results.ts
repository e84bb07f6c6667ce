/**
 * The permittivity the run stepped on each plane field monitor's plane, for the result file:
 * the node plane nearest the monitor's, over the whole domain, sampled and combined as the set-up
 * preview shows a plane (plane-permittivity.ts) but read from the medium the run painted whole —
 * so a preview of that plane and the file say the same, or the preview is wrong.
 */
import { SPEED_OF_LIGHT_M_PER_S } from "./constants.js";
import { layoutCells } from "./medium.js";
import type { GridPlan } from "./grid.js";
import { planeEps, planeSamples, type PlaneSamples } from "./plane-permittivity.js";
import type { FdtdSimulation } from "./simulation.js";
import type { MonitorSpec, PermittivityPlane } from "./types.js";

/**
 * Samples per in-plane axis at most: a 1000 × 1000 plane is 16 MB of ε in the file, about what
 * one wavelength of the monitor's own fields on it takes.
 */
export const PERMITTIVITY_MAX_SAMPLES = 1000;

/**
 * The samples of the permittivity plane a monitor's result carries: a field monitor that is a
 * plane (one zero extent) has one, on its nearest node plane over the whole domain; any other
 * monitor none (null). The run's file (below) and the estimate of its size (estimate.ts) both
 * take it from here.
 */
export function permittivityPlaneOf(
  plan: Pick<GridPlan, "axes">,
  m: MonitorSpec,
): PlaneSamples | null {
  if (m.monitor_type !== "field") return null;
  const flat = [0, 1, 2].filter((b) => m.size[b] === 0);
  if (flat.length !== 1) return null;
  const normal = flat[0]!;
  return planeSamples(plan, {
    normal,
    positionM: m.center[normal],
    maxSamples: PERMITTIVITY_MAX_SAMPLES,
  });
}

/** One plane per field monitor that is a plane (one zero extent), in the monitors' order. */
export function permittivityResults(sim: FdtdSimulation): PermittivityPlane[] {
  const wavelengthM = sim.spec.source.wavelength;
  const omega = (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / wavelengthM;
  const cells = layoutCells(sim.model.layout);
  const out: PermittivityPlane[] = [];
  for (const { spec: m } of sim.monitors) {
    const samples = permittivityPlaneOf(sim.plan, m);
    if (!samples) continue;
    const normal = samples.normal;
    const [u, v] = samples.axes;
    out.push({
      name: m.name,
      normal,
      axes: [u, v],
      positionM: samples.along[normal]![0]!.coordM,
      wavelengthM,
      coordsM: [
        Float64Array.from(samples.along[u]!, (p) => p.coordM),
        Float64Array.from(samples.along[v]!, (p) => p.coordM),
      ],
      ...planeEps(sim.model.medium, cells, samples, omega),
    });
  }
  return out;
}
