/**
 * What a set-up preview warns about (preview.ts): a request that passes its checks but whose
 * grid, as planned, does something the request probably did not mean.
 *
 * - A monitor in the absorber: the checks hold a monitor inside domain.size, but the grid rounds
 *   the region of interest to whole cells (grid.ts interiorCellsFor), so a monitor at its edge
 *   can land in absorber cells, where the fields are being damped.
 * - An object outside the domain: the checks refuse monitors, sources, ports, mesh overrides and
 *   structures that lie outside it, but a structure may reach beyond it. Beyond a pec or pmc
 *   wall its part there is cut off. Through an absorbing face a structure continues as its
 *   section at the face extruded outwards (geometry.ts): for a box or a straight guide that is
 *   the structure itself, for a sphere or a cylinder across its axis it is not, which the
 *   preview says. Across a periodic boundary the images are the point (a grating line cut by
 *   the period), and a source's plane or a port wider than the domain is clipped to the grid by
 *   design, so neither is warned about.
 * - A film thinner than two cells: a structure's extent along an axis, over the longest cell
 *   it spans there, below 2. Such a layer is resolved only by its sub-cell averaging (a 20 nm
 *   gold film at 10 nm cells), which holds its optical thickness but not its field inside.
 * - A port facing out: its direction (the way into the device) points to the nearer face of
 *   the region of interest and no structure begins or ends between the port and that face,
 *   so its runs launch the mode out of the device (an outside audit: |S|² of −78 dB, silently).
 */
import { interiorSpanM, stepsOver, type GridPlan } from "./grid.js";
import { structureBounds } from "./checks/structures.js";
import type { SimulationSpec } from "./types.js";
import { numberText } from "./number-text.js";

const AXES = "xyz";
const fmt = (v: number) => numberText(v);

/** Fewest cells across a structure along an axis before the preview warns. */
export const THIN_FILM_CELLS = 2;

export interface SetupWarning {
  code: "monitor_in_absorber" | "outside_domain" | "thin_film" | "port_facing_out";
  /** The request's field it is about, e.g. `monitors[0]`, `structures[2]`, `source`. */
  path: string;
  message: string;
}

/** The warnings of a checked request on its grid (the run's plan). */
export function setupWarnings(spec: SimulationSpec, plan: GridPlan): SetupWarning[] {
  return [
    ...monitorsInAbsorber(spec, plan),
    ...outsideDomain(spec, plan),
    ...thinFilms(spec, plan),
    ...portsFacingOut(spec, plan),
  ];
}

/** The ports facing out of the device (the ports run's report says so too: ports.ts). */
export function portsFacingOut(spec: SimulationSpec, plan: GridPlan): SetupWarning[] {
  const interior = interiorOf(plan);
  return (spec.ports ?? []).flatMap((p, i) => {
    const a = AXES.indexOf(p.direction[1]!);
    const sign = p.direction[0] === "-" ? -1 : 1;
    const [from, to] = interior[a]!;
    const face = sign > 0 ? to : from;
    if (Math.abs(face - p.center[a]) >= Math.abs(p.center[a] - (sign > 0 ? from : to))) return [];
    const between = (x: number) => (x - p.center[a]) * sign > 0 && (face - x) * sign > 0;
    const device = spec.structures.some((s) => {
      const b = structureBounds(s);
      return between(b.lo[a]) || between(b.hi[a]);
    });
    if (device) return [];
    return [
      {
        code: "port_facing_out" as const,
        path: `ports[${i}]`,
        message:
          `port "${p.name}" at ${AXES[a]} = ${fmt(p.center[a])} m faces ${p.direction}, towards ` +
          `the nearer face of the domain (${fmt(face)} m) with no structure between: a port's ` +
          `direction is the way into the device`,
      },
    ];
  });
}

/** The region of interest along each axis as the grid rounded it (both halves when mirrored). */
const interiorOf = (plan: GridPlan) => plan.axes.map((ax) => interiorSpanM(ax));

/** Tolerance for "beyond a face": a billionth of the axis' extent. */
const slack = (span: [number, number]) => 1e-9 * (span[1] - span[0]);

function monitorsInAbsorber(spec: SimulationSpec, plan: GridPlan): SetupWarning[] {
  const interior = interiorOf(plan);
  const out: SetupWarning[] = [];
  spec.monitors.forEach((m, i) => {
    for (let a = 0; a < 3; a++) {
      if (plan.axes[a].boundary !== "pml") continue;
      const lo = m.center[a] - m.size[a] / 2;
      const hi = m.center[a] + m.size[a] / 2;
      const [from, to] = interior[a];
      if (lo >= from - slack(interior[a]) && hi <= to + slack(interior[a])) continue;
      out.push({
        code: "monitor_in_absorber",
        path: `monitors[${i}]`,
        message:
          `monitor "${m.name}" reaches into the absorber along ${AXES[a]}: it spans ` +
          `[${fmt(lo)}, ${fmt(hi)}] m, the grid's region of interest (rounded to whole cells) ` +
          `[${fmt(from)}, ${fmt(to)}] m`,
      });
      break;
    }
  });
  return out;
}

function outsideDomain(spec: SimulationSpec, plan: GridPlan): SetupWarning[] {
  const interior = interiorOf(plan);
  const out: SetupWarning[] = [];
  spec.structures.forEach((s, i) => {
    const { lo, hi } = structureBounds(s);
    for (let a = 0; a < 3; a++) {
      const span = interior[a];
      const [below, above] = [lo[a] < span[0] - slack(span), hi[a] > span[1] + slack(span)];
      if (!below && !above) continue;
      const boundary = plan.axes[a].boundary;
      const spans =
        `it spans [${fmt(lo[a])}, ${fmt(hi[a])}] m along ${AXES[a]}, the domain ` +
        `[${fmt(span[0])}, ${fmt(span[1])}] m`;
      const curved = s.type === "sphere" || (s.type === "cylinder" && s.axis !== AXES[a]);
      let what: string | null = null;
      if (boundary === "pec" || boundary === "pmc") {
        what = `the part beyond the ${boundary} wall is cut off`;
      } else if (boundary === "pml" && curved) {
        const face = fmt(above ? span[1] : span[0]);
        what =
          `the absorber continues it as its section at ${AXES[a]} = ${face} m extruded ` +
          `outwards, not as its curved surface`;
      }
      if (!what) continue;
      out.push({
        code: "outside_domain",
        path: `structures[${i}]`,
        message: `the ${s.type} (${s.material}) reaches beyond the domain: ${spans}; ${what}`,
      });
      break;
    }
  });
  return out;
}

function thinFilms(spec: SimulationSpec, plan: GridPlan): SetupWarning[] {
  const out: SetupWarning[] = [];
  spec.structures.forEach((s, i) => {
    const { lo, hi } = structureBounds(s);
    let thinnest: { a: number; cells: number; stepM: number } | null = null;
    for (let a = 0; a < 3; a++) {
      const ax = plan.axes[a];
      // An axis one periodic cell thick (a 2-D domain) has nothing to resolve along it.
      if (ax.boundary === "periodic" && ax.cells === 1) continue;
      const stepM = stepsOver(ax, lo[a], hi[a]).maxM;
      const cells = (hi[a] - lo[a]) / stepM;
      if (cells < THIN_FILM_CELLS && (!thinnest || cells < thinnest.cells)) {
        thinnest = { a, cells, stepM };
      }
    }
    if (!thinnest) return;
    const { a, cells, stepM } = thinnest;
    out.push({
      code: "thin_film",
      path: `structures[${i}]`,
      message:
        `the ${s.type} (${s.material}) is ${cells.toFixed(2)} cells thick along ${AXES[a]} ` +
        `(${fmt(hi[a] - lo[a])} m at ${fmt(stepM)} m cells): thinner than ` +
        `${THIN_FILM_CELLS} cells, only sub-cell averaging resolves it; a mesh override ` +
        `across it refines the grid there`,
    });
  });
  return out;
}
