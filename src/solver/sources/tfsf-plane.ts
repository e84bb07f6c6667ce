/**
 * The injection terms of a total-field/scattered-field plane of finite size whose incident
 * field is a source's own profile (a Gaussian beam's, a waveguide mode's), as the plane
 * wave's terms (injection.ts) but over a window of the plane: at the node plane s normal to
 * axis a (sign sg of the direction along a, u = a+1, v = a+2 mod 3), H_u and H_v half a cell
 * upstream get ∓sg·(dt/μ0)/h·Einc_v,u(s) and E_u, E_v on the plane ±sg·cb/h·Hinc_v,u, over the
 * cells of the plane's window. Downstream the grid holds the injected wave (and what it
 * scatters), upstream only the scattered field.
 *
 * Each term comes as two (the real and the imaginary part of the profile), driven by the real
 * and the imaginary part of the analytic signal (analytic-drive.ts): slots 0, 1 for the H
 * terms, 2, 3 for the E terms.
 */
import {
  cellStepM,
  centreIndexAt,
  dualStepM,
  nodeIndexAt,
  staggerOf,
  type GridPlan,
  type YeeLayout,
} from "../grid.js";
import type { Medium } from "../medium-types.js";
import type { Vec3 } from "../types.js";
import type { InjectionConfig, InjectionTerm } from "./injection.js";

/** Where the plane is: its node index along its axis, the direction's sign, its window. */
export interface TfsfPlane {
  axis: number;
  sign: number;
  planeIndex: number;
  /** The window: the plane's centre and size (metres; zero along the axis). */
  center: Vec3;
  size: Vec3;
}

/**
 * The incident component `comp` (0–5: Ex … Hz) where the grid holds it on plane `plane` along
 * the axis (a node plane for E's tangential components, a centre plane for H's), at the
 * transverse cells given: interleaved (re, im) per cell.
 */
export type IncidentProfile = (
  comp: number,
  plane: number,
  cells: readonly [number, number][],
) => Float64Array;

/** The window of transverse indices [lo, hi] along u and v the plane covers. */
export interface PlaneWindow {
  lo: [number, number];
  hi: [number, number];
}

/** The H plane of the scattered-field side: half a cell upstream of node plane s. */
export function upstreamHPlane(plane: TfsfPlane): number {
  return plane.sign > 0 ? plane.planeIndex - 1 : plane.planeIndex;
}

/** The terms of a plane whose incident field is `incident`. */
export function tfsfInjection(
  plan: GridPlan,
  layout: YeeLayout,
  medium: Medium,
  hCoefficient: number,
  plane: TfsfPlane,
  incident: IncidentProfile,
): InjectionConfig {
  const { axis: a, sign: sg, planeIndex: s } = plane;
  const [u, v] = [(a + 1) % 3, (a + 2) % 3];
  const hIdx = upstreamHPlane(plane);
  const kH = hCoefficient / cellStepM(plan.axes[a], hIdx);
  const kE = 1 / dualStepM(plan.axes[a], s);
  const terms = (target: [number, number], source: [number, number], coef: number, slot: number) =>
    profileTerms(plan, layout, medium, plane, target, source, coef, slot, incident);
  // As the plane wave's terms (plane-wave.ts injection): H from E on the plane, E from H.
  const h = [
    ...terms([3 + u, hIdx], [v, s], -sg * kH, 0),
    ...terms([3 + v, hIdx], [u, s], sg * kH, 0),
  ];
  const e = [
    ...terms([u, s], [3 + v, hIdx], sg * kE, 2),
    ...terms([v, s], [3 + u, hIdx], -sg * kE, 2),
  ];
  return { axis: a, h, e };
}

/**
 * The two terms (real and imaginary part of the profile) of component `comp` on `targetPlane`,
 * driven by the incident component `source` where it sits on `sourcePlane` at the same
 * transverse cell (E on the plane for H terms, H half a cell upstream for E).
 */
function profileTerms(
  plan: GridPlan,
  layout: YeeLayout,
  medium: Medium,
  plane: TfsfPlane,
  [comp, targetPlane]: [number, number],
  [source, sourcePlane]: [number, number],
  coef: number,
  slot: number,
  incident: IncidentProfile,
): InjectionTerm[] {
  const a = plane.axis;
  const [u, v] = [(a + 1) % 3, (a + 2) % 3];
  const window = planeWindow(plan, layout, plane, comp);
  const nv = layout.n[v] + 2;
  const size = (layout.n[u] + 2) * nv;
  const re: InjectionTerm = {
    comp,
    plane: targetPlane,
    slot,
    wRe: new Float64Array(size),
    wIm: new Float64Array(size),
  };
  const im: InjectionTerm = {
    ...re,
    slot: slot + 1,
    wRe: new Float64Array(size),
    wIm: new Float64Array(size),
  };
  const cells: [number, number][] = [];
  for (let iu = window.lo[0]; iu <= window.hi[0]; iu++) {
    for (let iv = window.lo[1]; iv <= window.hi[1]; iv++) cells.push([iu, iv]);
  }
  const values = incident(source, sourcePlane, cells);
  const pos = [0, 0, 0];
  pos[a] = targetPlane;
  cells.forEach(([iu, iv], q) => {
    pos[u] = iu;
    pos[v] = iv;
    const cb =
      comp < 3 ? medium.cb[medium.index[comp]![layout.index(pos[0]!, pos[1]!, pos[2]!)]!]! : 1;
    const at = (iu + 1) * nv + iv + 1;
    re.wRe[at] = coef * cb * values[2 * q]!;
    im.wRe[at] = -coef * cb * values[2 * q + 1]!;
  });
  return [re, im];
}

/**
 * The transverse cells of the plane (center ± size/2) within the component's update range:
 * those whose sample point lies on the plane, at a node or a cell's centre as the component is
 * staggered (counted from nodes, a staggered component had the half cell past the plane's
 * high edge and not the one inside its low edge: a beam centred on the plane was injected
 * lopsided, first-order in the step).
 */
export function planeWindow(
  plan: GridPlan,
  layout: YeeLayout,
  plane: TfsfPlane,
  comp: number,
): PlaneWindow {
  const a = plane.axis;
  const range = (b: number): [number, number] => {
    const lo = plane.center[b] - plane.size[b] / 2;
    const hi = plane.center[b] + plane.size[b] / 2;
    const ax = plan.axes[b];
    const indexAt = staggerOf(comp, b) > 0 ? centreIndexAt : nodeIndexAt;
    const first = Math.max(layout.lo[comp * 3 + b]!, Math.ceil(indexAt(ax, lo) - 1e-9));
    const last = Math.min(layout.hi[comp * 3 + b]!, Math.floor(indexAt(ax, hi) + 1e-9));
    return [first, last];
  };
  const [ru, rv] = [range((a + 1) % 3), range((a + 2) % 3)];
  return { lo: [ru[0], rv[0]], hi: [ru[1], rv[1]] };
}
