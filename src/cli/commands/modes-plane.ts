/**
 * `emsim modes` options that name places and wavelengths: `--plane` (its syntax shared with
 * the dashboard, src/schema/plane-spec.ts) and `--wavelengths 1.5um:1.6um:11`.
 */
import { parsePlaneSpec, PlaneSpecError } from "../../schema/plane-spec.js";
import { UsageError } from "../usage.js";
import { parseWavelength } from "./plot-wavelength.js";

export { PLANE_SYNTAX } from "../../schema/plane-spec.js";

/** `--plane` into the API's `plane`; a mistake is a usage error naming the option. */
export function parsePlane(
  spec: string,
  domainSize: readonly number[],
): ReturnType<typeof parsePlaneSpec> {
  try {
    return parsePlaneSpec(spec, domainSize);
  } catch (err) {
    if (err instanceof PlaneSpecError) throw new UsageError(`--plane: ${err.message}`);
    throw err;
  }
}

/** `--wavelengths START:STOP:POINTS`, e.g. 1.5um:1.6um:11 → the API's {start, stop, points}. */
export function parseWavelengthRange(text: string): {
  start: number;
  stop: number;
  points: number;
} {
  const parts = text.split(":");
  const points = Number(parts[2]);
  if (parts.length !== 3 || !Number.isInteger(points) || points < 1) {
    throw new UsageError(
      `--wavelengths: cannot read '${text}'; write START:STOP:POINTS, e.g. 1.5um:1.6um:11`,
    );
  }
  return { start: parseWavelength(parts[0]!), stop: parseWavelength(parts[1]!), points };
}
