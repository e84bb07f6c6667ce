/**
 * The cells a total-field/scattered-field plane injects into: for every component, the sample
 * points on the plane, so that a plane centred on the grid's axis injects a symmetric window
 * whether the component sits at nodes or at cell centres (counted from nodes, a staggered
 * component took the half cell past the high edge and left the one inside the low edge: a
 * Gaussian beam's full run differed from its mirror-symmetric half by 1.7e-3 in Ex, 7e-3 in
 * Ez, first-order in the step; now by round-off).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { centreM, nodeM, planGrid, staggerOf, YeeLayout } from "../grid.js";
import type { DomainSpec } from "../types.js";
import { planeWindow } from "./tfsf-plane.js";

test("a plane centred on the axis covers a window symmetric about it, staggered or not", () => {
  const domain = {
    size: [2.4e-6, 2.4e-6, 1.6e-6],
    resolution: 50e-9,
    boundary_conditions: ["pml", "pml", "pml"],
    pml_layers: 10,
  } as DomainSpec;
  const plan = planGrid(domain, 0.99);
  const layout = YeeLayout.ofPlan(plan);
  const plane = {
    axis: 2,
    sign: 1,
    planeIndex: 20,
    center: [0, 0, -0.6e-6],
    size: [2.3e-6, 2.3e-6, 0],
  };
  for (let comp = 0; comp < 6; comp++) {
    const w = planeWindow(plan, layout, plane as never, comp);
    for (const [k, b] of [0, 1].entries()) {
      const at = (i: number) =>
        staggerOf(comp, b) > 0 ? centreM(plan.axes[b], i) : nodeM(plan.axes[b], i);
      const [lo, hi] = [at(w.lo[k]!), at(w.hi[k]!)];
      assert.ok(Math.abs(lo + hi) < 1e-15, `component ${comp} along ${"xy"[b]}: ${lo} … ${hi}`);
      assert.ok(lo >= -1.15e-6 - 1e-15 && hi <= 1.15e-6 + 1e-15, `within the plane: ${lo} … ${hi}`);
    }
  }
});
