/**
 * Checks of a far-field monitor (far-field-results.ts): a box (or a plane) clear of the
 * absorber, in one medium all round (no structure crossing its surface: the projection
 * assumes a homogeneous medium outside it), centred on each mirror plane of domain.symmetry or
 * clear of it (far-field-symmetry.ts unfolds the first; a face on the mirror wall would be left
 * out), and a bounded number of directions. In a 2-D cross-section the pattern is a line's
 * (far-field-cross-section.ts): the directions in the cross-section's plane, the surface
 * spanning the period, no Bloch phase along the thin axis; a 1-D column has no far field.
 */
import { crossSectionPlaneWords, inCrossSectionPlane } from "../far-field-cross-section.js";
import { centreIndexAt, nodeIndexAt, periodicThinAxes } from "../grid.js";
import { listOf } from "../monitors.js";
import type { FarFieldMonitorSpec, StructureSpec, Vec3 } from "../types.js";
import { AXES, checkRangeSpan, finite, fmt, type CheckContext } from "./common.js";
import { checkBoxHoldsCells } from "./closed-box.js";

/** Most wavelengths one far-field monitor may record (each a pattern over every direction). */
export const MAX_FAR_FIELD_WAVELENGTHS = 16;
/** Most directions (θ × φ) of one far-field monitor: a 1° grid over the whole sphere. */
export const MAX_FAR_FIELD_DIRECTIONS = 181 * 181;

export function checkFarField(ctx: CheckContext, m: FarFieldMonitorSpec, path: string): void {
  const { add, spec, halfSize } = ctx;
  if (!m.center.every(finite) || !m.size.every(finite)) return;
  const thin = thinAxisOf(ctx, m, path);
  if (thin === undefined) return;
  const zeros = m.size.filter((s) => s === 0).length;
  if (zeros > 1) {
    add(`${path}.size`, "a far-field monitor is a box (no zero extent) or a plane (one zero)");
    return;
  }
  if (zeros === 0) checkBoxHoldsCells(ctx, m, path);
  for (let a = 0; a < 3; a++) {
    const reach = Math.abs(m.center[a]) + m.size[a] / 2;
    if (reach >= halfSize[a] * (1 - 1e-9) && spec.domain.boundary_conditions[a] === "pml") {
      add(
        `${path}.size[${a}]`,
        `the far-field surface must lie inside the domain, clear of the absorber: along ` +
          `${AXES[a]} it reaches ${fmt(reach)} m of the domain's ±${fmt(halfSize[a])} m`,
      );
    }
    if ((spec.domain.symmetry?.[a] ?? "none") !== "none") checkMirrorWall(ctx, m, a, path);
  }
  checkBackground(ctx, m, thin, path);
  spec.structures.forEach((s, i) => {
    const [lo, hi] = boundsOf(s);
    if (surfaceRelation(lo, hi, m.center, m.size, thin) === "crossing") {
      add(
        `${path}.size`,
        `structures[${i}] (${s.type} of ${s.material}) crosses the far-field surface: the ` +
          "projection needs one medium all round it; enlarge or shrink the box so that each " +
          "structure lies wholly inside it, wholly outside it, or around all of it",
      );
    }
  });
  checkRangeSpan(ctx, m.theta_deg, `${path}.theta_deg`);
  checkRangeSpan(ctx, m.phi_deg, `${path}.phi_deg`);
  if (thin !== null) checkInPlane(ctx, m, thin, path);
  const count = (v: FarFieldMonitorSpec["theta_deg"]) => (Array.isArray(v) ? v.length : v.points);
  const directions = count(m.theta_deg) * count(m.phi_deg);
  if (directions > MAX_FAR_FIELD_DIRECTIONS) {
    add(
      `${path}.phi_deg`,
      `${directions} directions (θ × φ); at most ${MAX_FAR_FIELD_DIRECTIONS} are allowed`,
    );
  }
}

/**
 * The axis a 2-D cross-section is thin along (null in 3-D), or undefined where the monitor
 * cannot be projected at all (its errors added): a 1-D column's grid holds a sheet's plane
 * waves, with no far field; a cross-section's surface must span the period along the thin axis
 * (a zero extent there is a plane normal to it, which no power crosses), and a plane wave with
 * a component along it (a Bloch phase) radiates off the cross-section's plane.
 */
function thinAxisOf(
  ctx: CheckContext,
  m: FarFieldMonitorSpec,
  path: string,
): number | null | undefined {
  const plan = ctx.grid();
  const thin = plan ? periodicThinAxes(plan) : [];
  if (thin.length === 0) return null;
  if (thin.length > 1) {
    const along = thin.map((a) => AXES[a]).join(" and ");
    ctx.add(
      `${path}.monitor_type`,
      `this domain is one periodic cell thick along ${along} (a 1-D column), whose fields are ` +
        "a sheet's plane waves with no far field: use flux planes here",
    );
    return undefined;
  }
  const t = thin[0]!;
  if (m.size[t] === 0) {
    ctx.add(
      `${path}.size[${t}]`,
      `in a 2-D cross-section (one periodic cell thick along ${AXES[t]}) the far-field ` +
        `surface spans the period along ${AXES[t]}: give size[${t}] the domain's extent, ` +
        `not 0 (a plane normal to ${AXES[t]}, which no power crosses)`,
    );
    return undefined;
  }
  const source = ctx.spec.source;
  if (
    source.source_type === "plane_wave" &&
    Math.abs(source.direction[t]) > 1e-9 * Math.hypot(...source.direction)
  ) {
    ctx.add(
      `${path}.monitor_type`,
      `the plane wave's direction has a component along ${AXES[t]}, the 2-D cross-section's ` +
        `thin axis: what it scatters radiates off the cross-section's plane (a cone), which a ` +
        "line's far field does not hold; use flux planes here, or a direction in the plane",
    );
    return undefined;
  }
  return t;
}

/** In a 2-D cross-section every direction must lie in its plane (the line's pattern's). */
function checkInPlane(ctx: CheckContext, m: FarFieldMonitorSpec, t: number, path: string): void {
  const theta = listOf(m.theta_deg);
  const phi = listOf(m.phi_deg);
  for (const th of theta) {
    const off = phi.find((ph) => !inCrossSectionPlane(t, th, ph));
    if (off === undefined) continue;
    ctx.add(
      `${path}.${t === 2 ? "theta_deg" : "phi_deg"}`,
      `in a 2-D cross-section (one periodic cell thick along ${AXES[t]}) the far field is a ` +
        `line's, in the plane normal to ${AXES[t]}: every direction needs ` +
        `${crossSectionPlaneWords(t)}, and (θ, φ) = (${fmt(th)}°, ${fmt(off)}°) is off it; ` +
        "leave theta_deg and phi_deg out for that plane's default",
    );
    return;
  }
}

/**
 * The medium the surface lies in (the last structure around all of it, else vacuum) must carry
 * light to the far field: Re ε > 0 at every wavelength the monitor records (a metal or a
 * Drude background above its plasma wavelength has none).
 */
function checkBackground(
  ctx: CheckContext,
  m: FarFieldMonitorSpec,
  thin: number | null,
  path: string,
): void {
  const around = ctx.spec.structures.filter(
    (s) => surfaceRelation(...boundsOf(s), m.center, m.size, thin) === "around",
  );
  const material = around.at(-1)?.material;
  const info = material === undefined ? undefined : ctx.materials.describe(material);
  if (material === undefined || !info) return;
  if (info.perfectConductor) {
    ctx.add(
      `${path}.center`,
      `the far-field surface lies inside a perfect conductor (${material})`,
    );
    return;
  }
  const wavelengths = m.wavelengths ? listOf(m.wavelengths) : ctx.lambdaOk ? [ctx.lambda0] : [];
  for (const w of wavelengths) {
    const eps = ctx.materials.permittivity(material, w);
    if (eps.re > 0) continue;
    ctx.add(
      `${path}.center`,
      `the far-field surface lies in ${material}, whose Re ε is ${fmt(eps.re)} at ${fmt(w)} m: ` +
        "no wave carries its fields to the far field there; put the surface in a dielectric " +
        "(or vacuum) around the emitters",
    );
    return;
  }
}

/**
 * With symmetry along axis a the grid's low face is a mirror wall on a = 0. A far-field box
 * centred on it is the half at ≥ 0 of a whole box, unfolded before the projection; any other
 * box must keep its low face off the wall, and a plane normal to a must not lie on it: the
 * flux surface leaves a face on the wall out (no normal flux crosses it), but its tangential
 * currents radiate, so the projection would miss them.
 */
function checkMirrorWall(ctx: CheckContext, m: FarFieldMonitorSpec, a: number, path: string): void {
  const ax = ctx.grid()?.axes[a];
  if (!ax) return;
  const c = m.center[a];
  const half = m.size[a] / 2;
  const centred = Math.abs(c) <= 1e-9 * Math.max(ctx.spec.domain.size[a], Math.abs(c));
  // The grid's choice of the low face (monitors.ts sampleBox, flux.ts fluxSurface).
  const onWall =
    half > 0
      ? !centred && Math.ceil(centreIndexAt(ax, c - half) - 1e-9) <= 0
      : Math.round(nodeIndexAt(ax, c)) <= 0;
  if (!onWall) return;
  ctx.add(
    `${path}.center`,
    `with symmetry along ${AXES[a]} the far-field surface must be centred on ${AXES[a]} = 0 ` +
      `(its other half is then the mirror image) or keep clear of that plane, at least half a ` +
      `cell above it: this one has a face on the mirror wall, whose currents the projection ` +
      `would miss`,
  );
}

/**
 * Where a structure's bounding box [lo, hi] lies against the surface: clear of it, inside it,
 * around all of it, or crossing it; in a 2-D cross-section the thin axis (uniform, spanned by
 * the surface) is left out.
 */
function surfaceRelation(
  lo: Vec3,
  hi: Vec3,
  center: Vec3,
  size: Vec3,
  thin: number | null,
): "disjoint" | "inside" | "around" | "crossing" {
  const axes = [0, 1, 2].filter((a) => a !== thin);
  const bLo = center.map((c, a) => c - size[a]! / 2);
  const bHi = center.map((c, a) => c + size[a]! / 2);
  if (axes.some((a) => hi[a]! <= bLo[a]! || lo[a]! >= bHi[a]!)) return "disjoint";
  if (axes.every((a) => lo[a]! > bLo[a]! && hi[a]! < bHi[a]!)) return "inside";
  if (axes.every((a) => lo[a]! < bLo[a]! && hi[a]! > bHi[a]!)) return "around";
  return "crossing";
}

/** A structure's axis-aligned bounding box (a polyslab's grown by its sloped walls). */
function boundsOf(s: StructureSpec): [Vec3, Vec3] {
  switch (s.type) {
    case "box":
      return [
        s.center.map((c, a) => c - s.size[a]! / 2) as Vec3,
        s.center.map((c, a) => c + s.size[a]! / 2) as Vec3,
      ];
    case "sphere":
      return [s.center.map((c) => c - s.radius) as Vec3, s.center.map((c) => c + s.radius) as Vec3];
    case "cylinder": {
      const axis = "xyz".indexOf(s.axis);
      const half = s.center.map((_, a) => (a === axis ? s.height / 2 : s.radius));
      return [
        s.center.map((c, a) => c - half[a]!) as Vec3,
        s.center.map((c, a) => c + half[a]!) as Vec3,
      ];
    }
    case "polyslab": {
      const grow =
        Math.abs(Math.tan(((s.sidewall_angle_deg ?? 0) * Math.PI) / 180)) * (s.z_max - s.z_min);
      const xs = s.vertices.map((v) => v[0]);
      const ys = s.vertices.map((v) => v[1]);
      return [
        [Math.min(...xs) - grow, Math.min(...ys) - grow, s.z_min],
        [Math.max(...xs) + grow, Math.max(...ys) + grow, s.z_max],
      ];
    }
  }
}
