/**
 * Checks of a Gaussian-beam `source`: its amplitude, waist and direction, a plane normal to the
 * dominant axis of the direction (the beam crosses it at 45° at most), at least two cells
 * across (a narrower one injected nothing), inside the domain and
 * clear of the absorber, pml along the beam's axis, and its parity about a symmetry plane (as a
 * plane wave's, once its axis lies in that plane).
 */
import { thinAxes, type GridPlan } from "../grid.js";
import { cellCentresWithin } from "../monitors.js";
import { planeWaveGeometry } from "../sources/plane-wave.js";
import type { GaussianBeamSpec } from "../types.js";
import { AXES, finite, fmt, notCrossSection, type CheckContext } from "./common.js";
import { checkPlaneWaveParity } from "./plane-wave.js";

export function checkGaussianBeam(ctx: CheckContext, source: GaussianBeamSpec): void {
  const { add, spec, lambda0, lambdaOk } = ctx;
  if (!finite(source.amplitude)) add("source.amplitude", "must be a finite number of V/m");
  if (!finite(source.waist_distance))
    add("source.waist_distance", "must be a finite number of metres");
  if (!(finite(source.waist_radius) && source.waist_radius > 0)) {
    add("source.waist_radius", "must be a positive number of metres");
  } else if (lambdaOk && source.waist_radius < lambda0 / 4) {
    add(
      "source.waist_radius",
      `${fmt(source.waist_radius)} m is below a quarter of the wavelength (${fmt(lambda0 / 4)} m): ` +
        "no propagating beam has so small a waist",
    );
  }
  checkWaistDistance(ctx, source);
  const d = source.direction;
  if (!(d.every(finite) && Math.hypot(d[0], d[1], d[2]) > 0)) {
    add("source.direction", "must be a finite, non-zero vector");
    return;
  }
  if (!source.center.every(finite) || !source.size.every((s) => finite(s) && s >= 0)) return;
  const axis = planeWaveGeometry({ ...source, source_type: "plane_wave" }).axis;
  const plan = ctx.grid();
  const thin = plan ? thinAxes(plan, axis) : [];
  // Along a thin axis the window spans the domain whatever its size says.
  const zeros = [0, 1, 2].filter((a) => source.size[a] === 0 && !thin.includes(a));
  if (zeros.length !== 1 || zeros[0] !== axis) {
    // A line in a domain one cell thick: a 2-D beam only where that axis is periodic.
    const flat = zeros.filter((a) => a !== axis).map((a) => notCrossSection(ctx, a));
    add(
      "source.size",
      `the injection plane must be normal to ${AXES[axis]}, the dominant axis of the direction ` +
        `(${d.map(fmt).join(", ")}): give size[${axis}] = 0 and a non-zero extent across` +
        flat.join(""),
    );
  } else if (plan) checkPlaneCells(ctx, source, plan, [axis, ...thin]);
  checkIncidence(ctx, d, axis);
  checkPlacement(ctx, source, axis);
  checkCrossSection(ctx, source, thin);
  if (spec.domain.boundary_conditions[axis] !== "pml") {
    add(
      `domain.boundary_conditions[${axis}]`,
      `the beam travels along ${AXES[axis]}, so this boundary must be pml (another would ` +
        "reflect it back through the injection plane)",
    );
  }
}

/**
 * Rayleigh ranges (in vacuum, πw0²/λ0) the focus may lie from the injection plane. The beam's
 * field on the plane is an integral over its angular spectrum whose phase turns about 23 times
 * per Rayleigh range of distance, and its quadrature grows with it: on a plane of 200 × 200
 * cells 0.2 s a component at 1, 1.2 s at 100 (measured here); 1 000 m from a micron waist the
 * arrays would not fit in memory.
 * So far out, the beam on the plane is a spherical wave many waists wide.
 */
export const MAX_WAIST_DISTANCE_RAYLEIGH = 100;

/** The focus within MAX_WAIST_DISTANCE_RAYLEIGH Rayleigh ranges of the plane. */
function checkWaistDistance(ctx: CheckContext, source: GaussianBeamSpec): void {
  const { lambda0, lambdaOk } = ctx;
  const w0 = source.waist_radius;
  if (!(lambdaOk && finite(w0) && w0 > 0 && finite(source.waist_distance))) return;
  const rayleigh = (Math.PI * w0 * w0) / lambda0;
  const limit = MAX_WAIST_DISTANCE_RAYLEIGH * rayleigh;
  if (Math.abs(source.waist_distance) <= limit) return;
  ctx.add(
    "source.waist_distance",
    `${fmt(source.waist_distance)} m puts the focus more than ${MAX_WAIST_DISTANCE_RAYLEIGH} ` +
      `Rayleigh ranges (π·w0²/λ = ${fmt(rayleigh)} m) from the injection plane; at most ` +
      `±${fmt(limit)} m: place the plane nearer the focus or widen the waist`,
  );
}

/** Most degrees between the beam's direction and its plane's normal. */
const MAX_INCIDENCE_DEG = 45;

/** The direction within MAX_INCIDENCE_DEG of the plane's normal (the dominant axis). */
function checkIncidence(ctx: CheckContext, d: readonly number[], axis: number): void {
  const degrees = (Math.acos(Math.abs(d[axis]!) / Math.hypot(d[0]!, d[1]!, d[2]!)) * 180) / Math.PI;
  if (degrees <= MAX_INCIDENCE_DEG + 1e-9) return;
  ctx.add(
    "source.direction",
    `(${d.map(fmt).join(", ")}) is ${degrees.toFixed(1)}° from ${AXES[axis]}, the plane's ` +
      `normal: at most ${MAX_INCIDENCE_DEG}° (a steeper beam would cross its plane too ` +
      "obliquely); turn the direction nearer an axis",
  );
}

/** At least two cells across the plane along each axis it spans (a thin axis excepted). */
function checkPlaneCells(
  ctx: CheckContext,
  source: GaussianBeamSpec,
  plan: GridPlan,
  skip: readonly number[],
): void {
  for (let a = 0; a < 3; a++) {
    if (skip.includes(a)) continue;
    const cells = cellCentresWithin(plan, a, source.center, source.size);
    if (cells >= 2) continue;
    ctx.add(
      "source.size",
      `the injection plane covers ${cells} cell${cells === 1 ? "" : "s"} along ${AXES[a]} ` +
        `(${fmt(source.size[a])} m): it needs two at least, and a few waists ` +
        `(${fmt(source.waist_radius)} m each) to hold the beam`,
    );
    return;
  }
}

/** The plane inside the domain, a cell clear of the absorber along the beam's axis. */
function checkPlacement(ctx: CheckContext, source: GaussianBeamSpec, axis: number): void {
  const { add, halfSize, dx } = ctx;
  for (let a = 0; a < 3; a++) {
    const margin = a === axis ? dx : 0;
    if (Math.abs(source.center[a]) <= halfSize[a] - margin) continue;
    add(
      "source.center",
      `the injection plane's centre at ${AXES[a]} = ${fmt(source.center[a])} m is outside the ` +
        `domain${margin > 0 ? " or within a cell of the absorber" : ""} (±${fmt(halfSize[a])} m)`,
    );
  }
}

/**
 * In a cross-section (the domain one cell thick across the beam along `thin`) the beam is the
 * 2-D one, uniform along the thin axis (sources/beam-profile-2d.ts): the direction must lie in
 * the cross-section (a 3-D beam's cut would be another beam).
 */
function checkCrossSection(ctx: CheckContext, source: GaussianBeamSpec, thin: number[]): void {
  const d = source.direction;
  const length = Math.hypot(d[0], d[1], d[2]);
  if (thin.length > 1) {
    ctx.add(
      "domain.size",
      `the domain is one cell thick along both ${thin.map((a) => AXES[a]).join(" and ")}: a ` +
        "Gaussian beam needs room across it along one axis at least",
    );
  }
  for (const a of thin) {
    if (Math.abs(d[a]) / length <= 1e-9) continue;
    ctx.add(
      "source.direction",
      `the domain is one cell thick along ${AXES[a]} (a cross-section, where the beam is ` +
        `uniform along ${AXES[a]}), so the direction must lie in the cross-section: give ` +
        `direction[${a}] = 0`,
    );
  }
}

/** On the plane normal to axis a and travelling in it, the beam has the plane wave's parity. */
export function checkGaussianBeamParity(
  ctx: CheckContext,
  source: GaussianBeamSpec,
  a: number,
  path: string,
): void {
  if (!source.direction.every(finite) || !finite(source.center[a])) return;
  if (Math.abs(source.center[a]) > 1e-9 * ctx.spec.domain.size[a]) {
    ctx.add(
      path,
      `the beam's centre at ${AXES[a]} = ${fmt(source.center[a])} m is not on the plane ` +
        `${AXES[a]} = 0: it is not its own mirror image; use none here`,
    );
    return;
  }
  const axisWave = planeWaveGeometry({ ...source, source_type: "plane_wave" });
  checkPlaneWaveParity(ctx, axisWave, a, path, "the beam");
}
