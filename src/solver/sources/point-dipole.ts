/**
 * Point dipole (`source_type: "point_dipole"`, DESIGN §10): a current element at `center`,
 * electric (a current I·ℓ along x, y or z: the E update gets −cb·J) or magnetic (a magnetic
 * current along x, y or z: the H update gets −(dt/μ0)·M).
 *
 * On the grid: the moment is spread over the (at most 8) nearest samples of its component by
 * trilinear weights in index space, each sample carrying J = moment·weight/ΔV, ΔV the volume
 * that sample stands for (its cell along the component's axis, its dual cell across), so that
 * ΣJ·ΔV is the moment on any grid, graded ones too. Samples outside the component's update
 * range are left out: on a symmetry plane that is the mirror image, which the mirror wall
 * supplies (a dipole on a pec plane puts half its moment on the sample above the plane).
 *
 * Time: the current follows the pulse every source shares (pulse.ts) as a difference quotient,
 * so it sums to zero and leaves no static charge behind; J^{n+½} for E, M^n for H.
 *
 * Normalisation: the source spectrum S(ω) = Σ_n s_n·e^{iωt_n} of the unit samples, at the
 * times the updates see them, is accumulated as the run goes; the weights carry the moment, so
 * monitors are multiplied by N(ω) = 1/S(ω) and their phasors are those of a time-harmonic
 * dipole of moment `amplitude`.
 * Its power in vacuum, for the flux monitors' Purcell ratio (flux-results.ts), is
 * η0·k0²·|I·ℓ|²/(12π) (electric) or k0²·|Mℓ|²/(12π·η0) (magnetic) in 3-D, a line's or a
 * sheet's in a cross-section or a column (dipole-vacuum-power.ts).
 */
import { ETA0, EPS0 } from "../constants.js";
import { cubeAlong, nodeIndexAt, centreIndexAt, staggerOf, type YeeLayout } from "../grid.js";
import type { Medium } from "../medium-types.js";
import type { PointDipoleSpec } from "../types.js";
import { DRIVE_VALUES_PER_STEP, type InjectionConfig, type InjectionTerm } from "./injection.js";
import { dipoleVacuumPowerW } from "./dipole-vacuum-power.js";
import { currentSample, pulseFor, type PulseShape } from "./pulse.js";
import type { Source, SourceContext } from "./source.js";

const COMPONENT_OF = { Ex: 0, Ey: 1, Ez: 2, Hx: 3, Hy: 4, Hz: 5 } as const;

/** One grid sample the moment is spread over: its index per axis and its share. */
interface Share {
  index: [number, number, number];
  weight: number;
}

export class PointDipoleSource implements Source {
  readonly kind = "point_dipole";
  readonly notes: string[] = [];
  readonly complex = false;
  readonly blochPhase: [number, number, number] = [0, 0, 0];
  readonly pulse: PulseShape;
  /** The field component the dipole drives (0–2 electric, 3–5 magnetic). */
  readonly component: number;
  readonly magnetic: boolean;
  /** Σ_n s_n·e^{iωt_n} per recorded frequency, interleaved (re, im). */
  private readonly spectrum: Float64Array;
  private readonly dtSeconds: number;

  constructor(
    private readonly ctx: SourceContext,
    private readonly spec: PointDipoleSpec,
  ) {
    this.pulse = pulseFor(spec.wavelength, ctx.wavelengthsM);
    this.component = COMPONENT_OF[spec.polarization];
    this.magnetic = this.component >= 3;
    this.spectrum = new Float64Array(2 * ctx.omegas.length);
    this.dtSeconds = ctx.plan.dtSeconds;
  }

  /** The quasi-static near field one cell away, moment/(4π·ε0·ω0·h³): a scale for the fields. */
  get fieldScaleVPerM(): number {
    const h = Math.min(...this.ctx.plan.axes.map((ax) => ax.minStepM));
    const scale = Math.abs(this.spec.amplitude) / (4 * Math.PI * EPS0 * this.pulse.omega0 * h ** 3);
    return this.magnetic ? scale / ETA0 : scale;
  }

  injection(layout: YeeLayout, medium: Medium, hCoefficient: number): InjectionConfig {
    const c = this.component;
    const nv = layout.n[2] + 2;
    const terms = new Map<number, InjectionTerm>();
    for (const { index, weight } of this.shares(layout)) {
      const [i, j, k] = index;
      const volume = [0, 1, 2].reduce(
        (v, b) => v * cubeAlong(this.ctx.plan.axes[b], index[b], staggerOf(c, b)).lengthM,
        1,
      );
      const coefficient = this.magnetic
        ? hCoefficient
        : medium.cb[medium.index[c][layout.index(i, j, k)]];
      let term = terms.get(i);
      if (!term) {
        const size = (layout.n[1] + 2) * nv;
        term = {
          comp: c,
          plane: i,
          slot: 0,
          wRe: new Float64Array(size),
          wIm: new Float64Array(size),
        };
        terms.set(i, term);
      }
      term.wRe[(j + 1) * nv + k + 1] -= (coefficient * this.spec.amplitude * weight) / volume;
    }
    const list = [...terms.values()];
    return { axis: 0, h: this.magnetic ? list : [], e: this.magnetic ? [] : list };
  }

  /**
   * The samples of the dipole's component around its centre with their trilinear weights,
   * kept where the component is updated (periodic axes wrap around).
   */
  private shares(layout: YeeLayout): Share[] {
    const c = this.component;
    const perAxis = [0, 1, 2].map((b) => {
      const ax = this.ctx.plan.axes[b];
      const x = this.spec.center[b];
      const f = staggerOf(c, b) > 0 ? centreIndexAt(ax, x) : nodeIndexAt(ax, x);
      const i0 = Math.floor(f);
      const t = f - i0;
      const wrap = (i: number) =>
        ax.boundary === "periodic" ? ((i % ax.cells) + ax.cells) % ax.cells : i;
      return [
        { i: wrap(i0), w: 1 - t },
        { i: wrap(i0 + 1), w: t },
      ].filter((s) => s.w > 1e-12 && s.i >= layout.lo[c * 3 + b] && s.i <= layout.hi[c * 3 + b]);
    });
    const out: Share[] = [];
    for (const x of perAxis[0]) {
      for (const y of perAxis[1]) {
        for (const z of perAxis[2]) out.push({ index: [x.i, y.i, z.i], weight: x.w * y.w * z.w });
      }
    }
    return out;
  }

  advance(n: number, count: number, drive: Float64Array): void {
    const dt = this.dtSeconds;
    const omegas = this.ctx.omegas;
    for (let l = 0; l < count; l++) {
      // J^{n+½} over [n·dt, (n+1)·dt]; M^n over [(n−½)·dt, (n+½)·dt].
      const from = (n + l + (this.magnetic ? -0.5 : 0)) * dt;
      const s = currentSample(this.pulse, from, dt);
      drive[DRIVE_VALUES_PER_STEP * l] = s;
      drive[DRIVE_VALUES_PER_STEP * l + 1] = 0;
      const t = from + dt / 2;
      for (let w = 0; w < omegas.length; w++) {
        this.spectrum[2 * w] += s * Math.cos(omegas[w]! * t);
        this.spectrum[2 * w + 1] += s * Math.sin(omegas[w]! * t);
      }
    }
  }

  attachMonitors(): void {}

  /**
   * 1/S(ω): the injected current is `amplitude`·s(t) (the weights hold the moment), so the
   * monitors then read a dipole of moment `amplitude` at every ω.
   */
  normalisation(): Float64Array {
    const out = new Float64Array(this.spectrum.length);
    for (let w = 0; w < out.length / 2; w++) {
      const re = this.spectrum[2 * w]!;
      const im = this.spectrum[2 * w + 1]!;
      const mag2 = re * re + im * im;
      if (mag2 === 0) continue;
      out[2 * w] = re / mag2;
      out[2 * w + 1] = -im / mag2;
    }
    return out;
  }

  /**
   * The power the same dipole radiates in vacuum at angular frequency ω, in watts: in a
   * cross-section or a column, with its periodic images (dipole-vacuum-power.ts).
   */
  vacuumPowerW(omega: number): number {
    const moment = {
      axis: this.component % 3,
      magnetic: this.magnetic,
      moment: this.spec.amplitude,
    };
    return dipoleVacuumPowerW(this.ctx.plan, moment, omega);
  }
}
