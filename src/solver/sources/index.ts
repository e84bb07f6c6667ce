/**
 * The sources there are, one file each, behind one interface (source.ts): what the simulation
 * builds from a request's `source`.
 */
import type { SourceSpec } from "../types.js";
import { PlaneWaveSource, planeWaveGeometry } from "./plane-wave.js";
import { GaussianBeamSource } from "./gaussian-beam.js";
import { PointDipoleSource } from "./point-dipole.js";
import { ModeSource } from "./mode.js";
import type { SourceContext } from "./source.js";

export type { PlacedMonitor, Source, SourceContext } from "./source.js";
export { DRIVE_VALUES_PER_STEP, MAX_BLOCK_STEPS, type InjectionConfig } from "./injection.js";
export { sourceOffStep, type PulseShape } from "./pulse.js";
export { PlaneWaveSource } from "./plane-wave.js";
export { PointDipoleSource } from "./point-dipole.js";
export { GaussianBeamSource } from "./gaussian-beam.js";
export { ModeSource } from "./mode.js";

/** Every source type, narrowed by `kind`. */
export type AnySource = PlaneWaveSource | PointDipoleSource | GaussianBeamSource | ModeSource;

/** The source a run's request asks for, set up on its grid. */
export function createSource(ctx: SourceContext): AnySource {
  const spec: SourceSpec = ctx.spec.source;
  switch (spec.source_type) {
    case "plane_wave":
      return PlaneWaveSource.forRun(ctx, spec);
    case "point_dipole":
      return new PointDipoleSource(ctx, spec);
    case "gaussian_beam":
      return new GaussianBeamSource(ctx, spec);
    case "mode":
      return new ModeSource(ctx, spec);
    case "ports":
      throw new Error("a ports request runs as one mode source per input (ports.ts runPorts)");
  }
}

/** Whether a source makes the main grid complex (Bloch phases), known before the medium. */
export function needsComplexFields(spec: SourceSpec): boolean {
  return spec.source_type === "plane_wave" && planeWaveGeometry(spec).cosTheta < 1;
}
