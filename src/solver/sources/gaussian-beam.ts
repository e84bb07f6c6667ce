/**
 * Gaussian beam (`source_type: "gaussian_beam"`, DESIGN §10): the exact vector beam of
 * beam-profile.ts injected one way through a plane of finite size, as a total-field/
 * scattered-field surface (the plane wave's terms, injection.ts) whose incident field is the
 * beam's instead of an auxiliary line's: at the plane s (normal to axis a, sign sg of the
 * direction along a) H_u, H_v half a cell upstream get ∓sg·(dt/μ0)/h·Einc_v,u(s) and E_u, E_v on
 * the plane ±sg·cb/h·Hinc_v,u, over the cells of the plane's window. Downstream the grid holds
 * the beam (and what it scatters), upstream only the scattered field.
 *
 * Time: the incident field is Re[P(r)·c(t)], P the beam's complex profile at the source
 * wavelength (fixed over the band: at another wavelength the injected profile is the same, so
 * its waist and focus shift slightly) and c(t) = e(t)·e^{−iω0(t−t0)} the pulse every source
 * shares (pulse.ts) as an analytic signal. On a real grid that is two terms per component, Pr
 * driven by Re c and −Pi by Im c: slots 0, 1 for the H terms (c at E's time n·dt), 2, 3 for the
 * E terms (c at H's time (n+½)·dt).
 *
 * Normalisation: the spectrum C(ω) = Σ c(n·dt)·e^{iωn·dt} of the signal at E's times is
 * accumulated as the run goes; Re[P·c] carries P·c/2 at positive frequencies, so monitors are
 * multiplied by 2/C(ω), and at the source wavelength
 * they read the beam whose peak |E| at its focus is `amplitude`. Flux monitors report power
 * over the beam's power through a plane normal to it (its flux at the focus, W).
 */
import { SPEED_OF_LIGHT_M_PER_S } from "../constants.js";
import {
  cellStepM,
  centreM,
  dualStepM,
  nodeIndexAt,
  nodeM,
  positionM,
  staggerOf,
  type YeeLayout,
} from "../grid.js";
import type { Medium } from "../medium-types.js";
import type { GaussianBeamSpec, Vec3 } from "../types.js";
import { beamFields, beamPower, type GaussianBeam } from "./beam-profile.js";
import { DRIVE_VALUES_PER_STEP, type InjectionConfig, type InjectionTerm } from "./injection.js";
import { planeWaveGeometry, type PlaneWaveGeometry } from "./plane-wave.js";
import { pulseFor, type PulseShape } from "./pulse.js";
import type { Source, SourceContext } from "./source.js";

/** The window of transverse indices [lo, hi] along u and v the plane covers. */
interface Window {
  lo: [number, number];
  hi: [number, number];
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
  private readonly spectrum: Float64Array;

  constructor(
    private readonly ctx: SourceContext,
    private readonly spec: GaussianBeamSpec,
  ) {
    this.geometry = planeWaveGeometry({ ...spec, source_type: "plane_wave" });
    this.pulse = pulseFor(spec.wavelength, ctx.wavelengthsM);
    const a = this.geometry.axis;
    this.planeIndex = Math.round(nodeIndexAt(ctx.plan.axes[a], spec.center[a]));
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
    this.spectrum = new Float64Array(2 * ctx.omegas.length);
  }

  get fieldScaleVPerM(): number {
    return this.spec.amplitude;
  }

  /** ε of the medium at the plane's centre: the beam's profile is computed for it. */
  private planeEps(): number {
    const { layout, medium, plan } = this.ctx;
    const index = [0, 1, 2].map((b) =>
      Math.min(
        plan.axes[b].cells - 1,
        Math.max(0, Math.floor(nodeIndexAt(plan.axes[b], this.spec.center[b]))),
      ),
    );
    const entry = medium.index[0]![layout.index(index[0]!, index[1]!, index[2]!)]!;
    return Math.max(1, medium.epsEff[entry]!);
  }

  injection(layout: YeeLayout, medium: Medium, hCoefficient: number): InjectionConfig {
    const { axis: a, sign: sg } = this.geometry;
    const [u, v] = [(a + 1) % 3, (a + 2) % 3];
    const s = this.planeIndex;
    const hIdx = sg > 0 ? s - 1 : s;
    const ax = this.ctx.plan.axes[a];
    const kH = hCoefficient / cellStepM(ax, hIdx);
    const kE = 1 / dualStepM(ax, s);
    // As the plane wave's terms (plane-wave.ts injection): H from E on the plane, E from H.
    const h = [
      ...this.terms(layout, medium, [3 + u, hIdx], [v, s], -sg * kH, 0),
      ...this.terms(layout, medium, [3 + v, hIdx], [u, s], sg * kH, 0),
    ];
    const e = [
      ...this.terms(layout, medium, [u, s], [3 + v, hIdx], sg * kE, 2),
      ...this.terms(layout, medium, [v, s], [3 + u, hIdx], -sg * kE, 2),
    ];
    return { axis: a, h, e };
  }

  /**
   * The two terms (real and imaginary part of the profile) of component `comp` on `plane`,
   * driven by the beam's component `incident` where it sits on the grid on `incidentPlane` at
   * the same transverse cell (E on the plane for H terms, H half a cell upstream for E).
   */
  private terms(
    layout: YeeLayout,
    medium: Medium,
    [comp, plane]: [number, number],
    [incident, incidentPlane]: [number, number],
    coef: number,
    slot: number,
  ): InjectionTerm[] {
    const a = this.geometry.axis;
    const [u, v] = [(a + 1) % 3, (a + 2) % 3];
    const window = this.window(layout, comp);
    const nv = layout.n[v] + 2;
    const size = (layout.n[u] + 2) * nv;
    const re: InjectionTerm = {
      comp,
      plane,
      slot,
      wRe: new Float64Array(size),
      wIm: new Float64Array(size),
    };
    const im: InjectionTerm = {
      ...re,
      slot: slot + 1,
      wRe: new Float64Array(size),
      wIm: new Float64Array(size),
    };
    const cells: [number, number][] = [];
    for (let iu = window.lo[0]; iu <= window.hi[0]; iu++) {
      for (let iv = window.lo[1]; iv <= window.hi[1]; iv++) cells.push([iu, iv]);
    }
    const points = this.samplePoints(cells, incident, incidentPlane);
    const fields = beamFields(this.beam, points, { evanescent: this.spec.waist_distance <= 0 });
    const values = incident < 3 ? fields.e : fields.h;
    const c = incident % 3;
    cells.forEach(([iu, iv], q) => {
      const pos = [0, 0, 0];
      pos[a] = plane;
      pos[u] = iu;
      pos[v] = iv;
      const cb =
        comp < 3 ? medium.cb[medium.index[comp]![layout.index(pos[0]!, pos[1]!, pos[2]!)]!]! : 1;
      const at = (iu + 1) * nv + iv + 1;
      re.wRe[at] = coef * cb * values[6 * q + 2 * c]!;
      im.wRe[at] = -coef * cb * values[6 * q + 2 * c + 1]!;
    });
    return [re, im];
  }

  /** Where component `comp` sits at the transverse cells, on node plane `plane` along the axis. */
  private samplePoints(cells: [number, number][], comp: number, plane: number): Float64Array {
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

  /** The transverse cells of the plane (center ± size/2) within the component's update range. */
  private window(layout: YeeLayout, comp: number): Window {
    const a = this.geometry.axis;
    const axes = this.ctx.plan.axes;
    const range = (b: number): [number, number] => {
      const lo = this.spec.center[b] - this.spec.size[b] / 2;
      const hi = this.spec.center[b] + this.spec.size[b] / 2;
      const first = Math.max(layout.lo[comp * 3 + b]!, Math.ceil(nodeIndexAt(axes[b], lo) - 1e-9));
      const last = Math.min(layout.hi[comp * 3 + b]!, Math.floor(nodeIndexAt(axes[b], hi) + 1e-9));
      return [first, last];
    };
    const [u, v] = [(a + 1) % 3, (a + 2) % 3];
    const [ru, rv] = [range(u), range(v)];
    return { lo: [ru[0], rv[0]], hi: [ru[1], rv[1]] };
  }

  advance(n: number, count: number, drive: Float64Array): void {
    const dt = this.ctx.plan.dtSeconds;
    const { omega0, t0, tau } = this.pulse;
    const omegas = this.ctx.omegas;
    const signal = (t: number) => {
      const envelope = Math.exp(-(((t - t0) / tau) ** 2));
      return [envelope * Math.cos(omega0 * (t - t0)), -envelope * Math.sin(omega0 * (t - t0))];
    };
    for (let l = 0; l < count; l++) {
      const tE = (n + l) * dt;
      const [er, ei] = signal(tE);
      const [hr, hi] = signal(tE + dt / 2);
      const at = DRIVE_VALUES_PER_STEP * l;
      drive.fill(0, at, at + DRIVE_VALUES_PER_STEP);
      drive[at] = er;
      drive[at + 2] = ei;
      drive[at + 4] = hr;
      drive[at + 6] = hi;
      for (let w = 0; w < omegas.length; w++) {
        const [c, s] = [Math.cos(omegas[w]! * tE), Math.sin(omegas[w]! * tE)];
        this.spectrum[2 * w] += er * c - ei * s;
        this.spectrum[2 * w + 1] += er * s + ei * c;
      }
    }
  }

  attachMonitors(): void {}

  /** 2/C(ω): monitors then read the beam of the request's amplitude. */
  normalisation(): Float64Array {
    const out = new Float64Array(this.spectrum.length);
    for (let w = 0; w < out.length / 2; w++) {
      const [re, im] = [this.spectrum[2 * w]!, this.spectrum[2 * w + 1]!];
      const mag2 = re * re + im * im;
      if (mag2 === 0) continue;
      // Re[P·c(t)] carries P·c/2 at positive frequencies: N = 2/C(ω).
      out[2 * w] = (2 * re) / mag2;
      out[2 * w + 1] = (-2 * im) / mag2;
    }
    return out;
  }

  /** The beam's power through a plane normal to it, in watts (the same at every wavelength). */
  beamPowerW(): number {
    return beamPower(this.beam, 0);
  }

  /** ω0 of the source (for reports). */
  get omega0(): number {
    return (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / this.spec.wavelength;
  }
}
