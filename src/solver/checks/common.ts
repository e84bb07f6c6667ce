/**
 * What every check of a request (checks/*.ts) works with: the request with its defaults,
 * the material resolver, the problem list, and a few facts more than one check needs.
 */
import { planGrid, type GridPlan } from "../grid.js";
import { numberText } from "../number-text.js";
import type { MaterialResolver } from "../simulation.js";
import type { MonitorSpec, SimulationSpec, SpecProblem, Vec3, WavelengthRange } from "../types.js";

export const AXES = "xyz";
export const fmt = (v: number) => numberText(v);

/**
 * The significant digits (6 at least, as fmt) that tell two numbers apart in a message that
 * sets them side by side: a centre 1.0000001e-6 "beyond ±1e-6" did not read as beyond at six.
 */
export function digitsApart(a: number, b: number): number {
  let digits = 6;
  while (digits < 17 && Number(a.toPrecision(digits)) === Number(b.toPrecision(digits))) digits++;
  return digits;
}
export const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

export interface CheckContext {
  spec: SimulationSpec;
  materials: MaterialResolver;
  problems: SpecProblem[];
  add(path: string, message: string): void;
  /** Grid step, domain extent and half extent per axis (metres). */
  dx: number;
  size: Vec3;
  halfSize: number[];
  /** The source wavelength, and whether it is a usable positive number. */
  lambda0: number;
  lambdaOk: boolean;
  /**
   * The grid plan (grid.ts), once the domain and settings checks found nothing wrong with what
   * it is planned from (call after them); null while they have.
   */
  grid(): GridPlan | null;
}

export function checkContext(spec: SimulationSpec, materials: MaterialResolver): CheckContext {
  const problems: SpecProblem[] = [];
  const lambda0 = spec.source.wavelength;
  let plan: GridPlan | null | undefined;
  return {
    spec,
    materials,
    problems,
    add: (path, message) => problems.push({ path, message }),
    dx: spec.domain.resolution,
    size: spec.domain.size,
    halfSize: spec.domain.size.map((v) => v / 2),
    lambda0,
    lambdaOk: finite(lambda0) && lambda0 > 0,
    grid() {
      if (plan === undefined) {
        // What the plan is made from: a problem with any of it leaves no plan to make.
        const planned = [
          "domain.size",
          "domain.resolution",
          "domain.pml_layers",
          "domain.mesh_overrides",
          "domain.max_step_ratio",
          "fdtd_settings.courant_factor",
        ];
        const blocked = problems.some((p) => planned.some((prefix) => p.path.startsWith(prefix)));
        plan = blocked ? null : planGrid(spec.domain, spec.fdtd_settings.courant_factor);
      }
      return plan;
    },
  };
}

/**
 * The wavelengths of a monitor that bound what it records, with the path suffix that names
 * each: every entry of a list, the two ends of a range (the band checks are monotonic in
 * the wavelength, so the points between pass when the ends do).
 */
export function wavelengthsToCheck(m: MonitorSpec): { w: number; at: string }[] {
  const ws = m.wavelengths;
  if (!ws) return [];
  if (Array.isArray(ws)) return ws.map((w, j) => ({ w, at: `[${j}]` }));
  return [
    { w: ws.start, at: ".start" },
    { w: ws.stop, at: ".stop" },
  ];
}

/**
 * A range of `points` > 1 values from `start` to the same `stop` (one wavelength, of a monitor,
 * a ports source or a mode solve, or one far-field angle many times), refused at
 * `<path>.stop`; and one point from `start` to another `stop`, which held start alone,
 * refused at `<path>.points`.
 */
export function checkRangeSpan(
  ctx: CheckContext,
  ws: number[] | WavelengthRange | undefined,
  path: string,
): void {
  if (!ws || Array.isArray(ws)) return;
  if (ws.points > 1 && ws.start === ws.stop) {
    ctx.add(`${path}.stop`, "must differ from start when points > 1");
  } else if (ws.points === 1 && ws.start !== ws.stop) {
    ctx.add(
      `${path}.points`,
      "one point holds start alone, but a range includes both ends: give points of 2 or more, " +
        "or stop equal to start",
    );
  }
}

/**
 * Where the domain is one cell thick along axis b but not periodic there, why it is no 2-D
 * cross-section (for a message about a plane or a line too thin along b); "" elsewhere.
 */
export function notCrossSection(ctx: CheckContext, b: number): string {
  const { size, boundary_conditions } = ctx.spec.domain;
  if (size[b]! > ctx.dx * (1 + 1e-9) || boundary_conditions[b] === "periodic") return "";
  return `; the domain is one cell thick along ${AXES[b]}, a 2-D cross-section only with periodic boundaries there`;
}
