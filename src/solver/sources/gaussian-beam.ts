/**
 * Gaussian beam (`source_type: "gaussian_beam"`, DESIGN §10): the exact vector beam of
 * beam-profile.ts injected one way through a plane of finite size, as a total-field/
 * scattered-field plane (tfsf-plane.ts) whose incident field is the beam's: downstream the
 * grid holds the beam (and what it scatters), upstream only the scattered field. In a
 * cross-section (the domain one cell thick along an axis across the beam) the beam is the 2-D
 * one of beam-profile-2d.ts, uniform along that axis, its plane spans the axis and its power
 * is through the domain's thickness.
 *
 * Time: the incident field is Re[P(r)·c(t)] (analytic-drive.ts), P the beam's complex profile at
 * the source wavelength (fixed over the band: at another wavelength the injected profile is
 * the same, so its waist and focus shift slightly). Monitors multiplied by 2/C(ω) read the
 * beam whose peak |E| at its focus is `amplitude` at the source wavelength. Flux monitors
 * report power over the beam's power through a plane normal to it (its flux at the focus, W).
 */
import { entryPermittivity } from "../entry-permittivity.js";
import { SPEED_OF_LIGHT_M_PER_S } from "../constants.js";
import {
  centreM,
  nodeIndexAt,
  nodeM,
  positionM,
  staggerOf,
  thinAxes,
  type AxisPlan,
  type YeeLayout,
} from "../grid.js";
import type { Medium } from "../medium-types.js";
import type { GaussianBeamSpec, Vec3 } from "../types.js";
import { beamFields, beamPower, type GaussianBeam } from "./beam-profile.js";
import { beamFields2d, beamPower2d } from "./beam-profile-2d.js";
import { AnalyticDrive } from "./analytic-drive.js";
import type { InjectionConfig } from "./injection.js";
import { planeWaveGeometry, type PlaneWaveGeometry } from "./plane-wave.js";
import { pulseFor, type PulseShape } from "./pulse.js";
import type { Source, SourceContext } from "./source.js";
import { tfsfInjection } from "./tfsf-plane.js";

/** The grid's length along an axis, in metres. */
function axisLengthM(axis: AxisPlan): number {
  return axis.nodesM[axis.cells]! - axis.nodesM[0]!;
}

export class GaussianBeamSource implements Source {
  readonly kind = "gaussian_beam";
  readonly notes: string[] = [];
  readonly complex = false;
  readonly blochPhase: [number, number, number] = [0, 0, 0];
  readonly pulse: PulseShape;
  readonly geometry: PlaneWaveGeometry;
  readonly beam: GaussianBeam;
  /** Node index of the injection plane along its axis. */
  readonly planeIndex: number;
  /**
   * The axis across the beam along which the domain is one cell thick (a cross-section: the
   * beam is the 2-D one of beam-profile-2d.ts, uniform along it), or null in 3-D.
   */
  readonly thinAxis: number | null;
  private readonly drive: AnalyticDrive;

  constructor(
    private readonly ctx: SourceContext,
    private readonly spec: GaussianBeamSpec,
  ) {
    this.geometry = planeWaveGeometry({ ...spec, source_type: "plane_wave" });
    this.pulse = pulseFor(spec.wavelength, ctx.wavelengthsM);
    const a = this.geometry.axis;
    this.planeIndex = Math.round(nodeIndexAt(ctx.plan.axes[a], spec.center[a]));
    this.thinAxis = thinAxes(ctx.plan, a)[0] ?? null;
    const d = this.geometry.direction;
    this.beam = {
      direction: d,
      focus: spec.center.map((c, b) => c + spec.waist_distance * d[b]!) as Vec3,
      waistRadius: spec.waist_radius,
      wavelength: spec.wavelength,
      index: Math.sqrt(this.planeEps()),
      polarization: spec.polarization,
      amplitude: spec.amplitude,
    };
    this.drive = new AnalyticDrive(this.pulse, ctx.omegas, ctx.plan.dtSeconds);
  }

  get fieldScaleVPerM(): number {
    return this.spec.amplitude;
  }

  /**
   * Re ε at the source's wavelength of the medium at the plane's centre, its dispersion
   * included where it is stepped with it: the beam's profile is computed for it.
   */
  private planeEps(): number {
    const { layout, medium, plan } = this.ctx;
    const index = [0, 1, 2].map((b) =>
      Math.min(
        plan.axes[b].cells - 1,
        Math.max(0, Math.floor(nodeIndexAt(plan.axes[b], this.spec.center[b]))),
      ),
    );
    const entry = medium.index[0]![layout.index(index[0]!, index[1]!, index[2]!)]!;
    return Math.max(1, entryPermittivity(medium, entry, this.omega0).re);
  }

  injection(layout: YeeLayout, medium: Medium, hCoefficient: number): InjectionConfig {
    const { axis, sign } = this.geometry;
    const plane = {
      axis,
      sign,
      planeIndex: this.planeIndex,
      center: this.spec.center,
      size: this.windowSize(),
    };
    const thin = this.thinAxis;
    const options = { evanescent: this.spec.waist_distance <= 0 };
    return tfsfInjection(this.ctx.plan, layout, medium, hCoefficient, plane, (comp, at, cells) => {
      const points = this.samplePoints(cells, comp, at);
      const fields =
        thin === null
          ? beamFields(this.beam, points, options)
          : beamFields2d(this.beam, thin, points, options);
      const values = comp < 3 ? fields.e : fields.h;
      const c = comp % 3;
      const out = new Float64Array(2 * cells.length);
      for (let q = 0; q < cells.length; q++) {
        out[2 * q] = values[6 * q + 2 * c]!;
        out[2 * q + 1] = values[6 * q + 2 * c + 1]!;
      }
      return out;
    });
  }

  /** The injection window's size: in a cross-section it spans the thin axis whatever its size. */
  private windowSize(): Vec3 {
    const size = [...this.spec.size] as Vec3;
    if (this.thinAxis !== null)
      size[this.thinAxis] = 2 * axisLengthM(this.ctx.plan.axes[this.thinAxis]);
    return size;
  }

  /** Where component `comp` sits at the transverse cells, on node plane `plane` along the axis. */
  private samplePoints(
    cells: readonly [number, number][],
    comp: number,
    plane: number,
  ): Float64Array {
    const a = this.geometry.axis;
    const [u, v] = [(a + 1) % 3, (a + 2) % 3];
    const axes = this.ctx.plan.axes;
    const out = new Float64Array(3 * cells.length);
    cells.forEach(([iu, iv], q) => {
      out[3 * q + a] = staggerOf(comp, a) > 0 ? centreM(axes[a], plane) : nodeM(axes[a], plane);
      out[3 * q + u] = positionM(axes[u], iu, staggerOf(comp, u));
      out[3 * q + v] = positionM(axes[v], iv, staggerOf(comp, v));
    });
    return out;
  }

  advance(n: number, count: number, drive: Float64Array): void {
    this.drive.advance(n, count, drive);
  }

  attachMonitors(): void {}

  /** 2/C(ω): monitors then read the beam of the request's amplitude. */
  normalisation(): Float64Array {
    return this.drive.normalisation();
  }

  /**
   * The beam's power through a plane normal to it, in watts (the same at every wavelength); in
   * a cross-section, through the domain's one cell of thickness.
   */
  beamPowerW(): number {
    const thin = this.thinAxis;
    if (thin === null) return beamPower(this.beam, 0);
    return beamPower2d(this.beam, thin) * axisLengthM(this.ctx.plan.axes[thin]);
  }

  /** ω0 of the source (for reports). */
  get omega0(): number {
    return (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / this.spec.wavelength;
  }
}
