/**
 * A mode plane written as text, `y=0,x=-0.8um:0.8um` (the CLI's `emsim modes --plane` and the
 * dashboard's Modes page): exactly one axis at one position, the plane's normal, and for
 * either transverse axis an optional range LO:HI; a transverse axis without one spans the
 * domain (centred on the origin) from edge to edge. Lengths take a unit (nm, um, µm, m); a
 * plain number is metres.
 */

const AXES = ["x", "y", "z"] as const;
type Vec3 = [number, number, number];

/** A mistake in a plane's text; the message says what and how to write it. */
export class PlaneSpecError extends Error {
  override name = "PlaneSpecError";
}

export const PLANE_SYNTAX =
  "AXIS=POS[,AXIS=LO:HI]…, e.g. y=0 (the whole cross-section normal to y through y = 0) or y=0,x=-0.8um:0.8um,z=-0.7um:0.9um";

/** "0", "-0.8um", "800nm", "-8e-7" → metres. */
export function parseLengthText(text: string): number {
  const m = /^\s*([-+]?[0-9]*\.?[0-9]+(?:e[-+]?\d+)?)\s*(nm|um|µm|m)?\s*$/i.exec(text);
  if (!m) throw new PlaneSpecError(`cannot read '${text}' as a length (e.g. 0, -0.8um, 800nm)`);
  const value = Number(m[1]);
  const unit = (m[2] ?? "").toLowerCase();
  if (unit === "nm") return value * 1e-9;
  if (unit === "um" || unit === "µm") return value * 1e-6;
  if (unit === "" && Math.abs(value) >= 1e-3) {
    // A domain is rarely a millimetre across; "0.8" most likely meant micrometres.
    throw new PlaneSpecError(
      `'${text}': plain numbers are metres; add a unit, e.g. ${text.trim()}um or ${text.trim()}nm`,
    );
  }
  return value;
}

/** The API's `plane` ({center, size}, metres) from its text and the domain's size. */
export function parsePlaneSpec(
  spec: string,
  domainSize: readonly number[],
): { center: Vec3; size: Vec3 } {
  const center: Vec3 = [0, 0, 0];
  const size: Vec3 = [domainSize[0] ?? 0, domainSize[1] ?? 0, domainSize[2] ?? 0];
  const seen = new Set<string>();
  let normal: number | null = null;
  for (const term of spec.split(",")) {
    const m = /^\s*([xyz])\s*=(.*)$/i.exec(term);
    if (!m) throw new PlaneSpecError(`cannot read '${term}'; write ${PLANE_SYNTAX}`);
    const axisName = m[1]!.toLowerCase();
    const axis = AXES.indexOf(axisName as (typeof AXES)[number]);
    if (seen.has(axisName)) throw new PlaneSpecError(`${axisName} is named twice`);
    seen.add(axisName);
    const range = m[2]!.split(":");
    if (range.length === 1) {
      if (normal !== null) {
        throw new PlaneSpecError(
          `${AXES[normal]} and ${axisName} are both given one position; the plane is normal to one axis, the others take a range LO:HI`,
        );
      }
      normal = axis;
      center[axis] = parseLengthText(range[0]!);
      size[axis] = 0;
    } else if (range.length === 2) {
      const lo = parseLengthText(range[0]!);
      const hi = parseLengthText(range[1]!);
      if (!(hi > lo)) throw new PlaneSpecError(`${axisName}=${m[2]}: LO must be below HI`);
      center[axis] = (lo + hi) / 2;
      size[axis] = hi - lo;
    } else {
      throw new PlaneSpecError(`cannot read '${term}'; write ${PLANE_SYNTAX}`);
    }
  }
  if (normal === null) {
    throw new PlaneSpecError(`the normal axis needs one position; write ${PLANE_SYNTAX}`);
  }
  return { center, size };
}
