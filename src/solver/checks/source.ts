/**
 * Checks of `source`: what every source needs (a usable wavelength), then its type's own checks
 * (plane-wave.ts, point-dipole.ts, gaussian-beam.ts, mode-source.ts), and its parity about a
 * symmetry plane (a mode source's is its mode solver's: mode-source.ts).
 */
import type { CheckContext } from "./common.js";
import { checkPlaneWave, checkPlaneWaveParity, type PlaneWave } from "./plane-wave.js";
import { checkGaussianBeam, checkGaussianBeamParity } from "./gaussian-beam.js";
import { checkPointDipole, checkPointDipoleParity } from "./point-dipole.js";
import { checkModeSource } from "./mode-source.js";

/** What later checks need of the source: a plane wave's geometry once its direction is usable. */
export interface SourceFacts {
  planeWave: PlaneWave | null;
}

/** The source's problems, and what later checks need of it. */
export function checkSource(ctx: CheckContext): SourceFacts {
  const { spec, add, lambdaOk } = ctx;
  if (!lambdaOk) add("source.wavelength", "must be a positive number of metres");
  const source = spec.source;
  switch (source.source_type) {
    case "plane_wave":
      return { planeWave: checkPlaneWave(ctx, source) };
    case "point_dipole":
      checkPointDipole(ctx, source);
      return { planeWave: null };
    case "gaussian_beam":
      checkGaussianBeam(ctx, source);
      return { planeWave: null };
    case "mode":
      checkModeSource(ctx, source);
      return { planeWave: null };
    case "ports":
      // Its ports have their own checks (ports.ts), after the structures'.
      return { planeWave: null };
  }
}

/** The source's parity about the plane normal to axis a against `domain.symmetry[a]`. */
export function checkSourceParity(
  ctx: CheckContext,
  facts: SourceFacts,
  a: number,
  path: string,
): void {
  const source = ctx.spec.source;
  if (source.source_type === "point_dipole") checkPointDipoleParity(ctx, source, a, path);
  else if (source.source_type === "gaussian_beam") checkGaussianBeamParity(ctx, source, a, path);
  else if (facts.planeWave) checkPlaneWaveParity(ctx, facts.planeWave, a, path);
}
