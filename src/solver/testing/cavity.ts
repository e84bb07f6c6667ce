/**
 * A closed vacuum cavity on the reference kernel for energy-conservation tests: the grid of a
 * domain (uniform or graded) with every boundary as given, E = 0 and H seeded with
 * reproducible noise, so every mode of the cavity is excited.
 */
import { planGrid, YeeLayout, type GridPlan } from "../grid.js";
import { referenceKernel } from "../kernel.js";
import { buildMedium } from "../medium.js";
import type { DomainSpec } from "../types.js";
import { buildGridModel, YeeGrid } from "../yee.js";

export interface NoisyCavity {
  plan: GridPlan;
  layout: YeeLayout;
  grid: YeeGrid;
  /** One leapfrog step: H, its ghosts, E, its ghosts. */
  step(): void;
}

export function noisyCavity(domain: DomainSpec, courantFactor: number): NoisyCavity {
  const plan = planGrid(domain, courantFactor);
  const layout = YeeLayout.ofPlan(plan);
  const medium = buildMedium(plan, layout, { epsRe: 1, sigma: 0 }, []);
  const grid = new YeeGrid(buildGridModel(plan, layout, medium, { omega0: 1e15 }));
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5;
  for (let c = 3; c < 6; c++) {
    for (let i = 0; i < grid.re.c[c].length; i++) grid.re.c[c][i] = rand() / 377;
  }
  const step = () => {
    grid.updateH(referenceKernel);
    grid.fillGhostsH();
    grid.updateE(referenceKernel);
    grid.fillGhostsE();
  };
  return { plan, layout, grid, step };
}
