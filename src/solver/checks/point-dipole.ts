/**
 * Checks of a point-dipole `source`: its amplitude, a position inside the domain (not in the
 * absorber, where it would radiate into the PML), a moment that radiates in a 1-D column, and
 * its parity about a symmetry plane.
 */
import { periodicThinAxes } from "../grid.js";
import type { PointDipoleSpec } from "../types.js";
import { AXES, finite, fmt, type CheckContext } from "./common.js";

export function checkPointDipole(ctx: CheckContext, source: PointDipoleSpec): void {
  const { add, halfSize } = ctx;
  if (!finite(source.amplitude)) {
    add("source.amplitude", "must be a finite number (A·m, or V·m for a magnetic dipole)");
  }
  const c = source.center;
  if (!c.every(finite)) {
    add("source.center", "must be three finite coordinates in metres");
    return;
  }
  for (let a = 0; a < 3; a++) {
    const half = halfSize[a];
    if (!finite(half) || Math.abs(c[a]) <= half) continue;
    add(
      "source.center",
      `the dipole at ${AXES[a]} = ${fmt(c[a])} m is outside the domain, which spans ` +
        `[${fmt(-half)}, ${fmt(half)}] m along ${AXES[a]} (the absorber lies outside it)`,
    );
  }
  checkSheetMoment(ctx, source);
}

/**
 * In a domain one periodic cell across two axes (a 1-D column) the dipole and its images are
 * a sheet, which radiates only with its moment in the sheet; across three, nothing radiates.
 */
function checkSheetMoment(ctx: CheckContext, source: PointDipoleSpec): void {
  const plan = ctx.grid();
  const thin = plan ? periodicThinAxes(plan) : [];
  const axis = AXES.indexOf(source.polarization[1]!.toLowerCase() as (typeof AXES)[number]);
  if (thin.length < 2 || (thin.length === 2 && thin.includes(axis))) return;
  const across = thin.map((a) => AXES[a]).join(" and ");
  const fix =
    thin.length === 2
      ? `: use ${thin.map((a) => source.polarization[0] + AXES[a]).join(" or ")}, or widen the domain`
      : ": widen the domain";
  ctx.add(
    "source.polarization",
    `the domain is one periodic cell across ${across}, so the dipole and its images form a ` +
      `sheet, which radiates only with its moment in the sheet; ${source.polarization} ` +
      `radiates nothing${fix}`,
  );
}

/**
 * A dipole is its own mirror image about the plane normal to axis a only on that plane, and
 * then with one parity: an electric dipole along a has odd tangential E (pec), across a even
 * (pmc); a magnetic dipole the other way round (its E circles its axis).
 */
export function checkPointDipoleParity(
  ctx: CheckContext,
  source: PointDipoleSpec,
  a: number,
  path: string,
): void {
  const { add, spec } = ctx;
  const at = source.center[a];
  if (finite(at) && Math.abs(at) > 1e-9 * Math.max(spec.domain.size[a], 1e-30)) {
    add(
      path,
      `the dipole at ${AXES[a]} = ${fmt(at)} m is not its own mirror image about ` +
        `${AXES[a]} = 0: put it on that plane, or use none here`,
    );
    return;
  }
  const magnetic = source.polarization.startsWith("H");
  const along = source.polarization.endsWith(AXES[a]);
  const needed = along !== magnetic ? "pec" : "pmc";
  if (spec.domain.symmetry![a] === needed) return;
  add(
    path,
    `a${magnetic ? " magnetic" : "n electric"} dipole ${along ? "along" : "across"} ` +
      `${AXES[a]} (${source.polarization}) has ${needed === "pec" ? "odd" : "even"} tangential ` +
      `E about ${AXES[a]} = 0: the symmetry is ${needed}, not ${spec.domain.symmetry![a]}`,
  );
}
