/**
 * A waveguide mode injected one way (`source_type: "mode"`, DESIGN §10): the plane's mode
 * `mode_index`, solved on the run's own grid and medium (modes/: the FDTD's cells, averaging
 * and mirror walls, so the grid is handed the mode it carries), injected through the plane
 * as a total-field/scattered-field surface (tfsf-plane.ts) whose incident field is the mode's.
 *
 * Incident field. E_t on the node plane s is the mode's E_t; H_t sits half a cell upstream,
 * where the mode's H_t has the phase e^{−iβΔ} (Δ the half cell) at ω0. Over the band the
 * phase should follow β(ω)Δ: the H terms' drive is advanced in time by τ = n_g·Δ/c (the group
 * delay over Δ) and their weights carry e^{−i(β0Δ − ω0τ)}, which is β(ω)Δ to first order in
 * ω − ω0, so the wave that leaks upstream stays small over the band (second order). A mode
 * travelling along −a is the +a mode with H_t (and E_a) negated.
 *
 * Power: monitors read the injected profile P (the mode at λ0, 1 W) through 2/C(ω)
 * (analytic-drive.ts). At another wavelength P is not quite that wavelength's mode: the H
 * terms carry a spectral factor that keeps P from launching the mode backwards there
 * (mode-impedance.ts), and the run launches a(ω) of the source's mode forwards, so the
 * normalisation is also divided by a(ω): every monitor reads the fields of exactly 1 W in the
 * source's mode at every wavelength. Flux monitors report power in watts over 1 W.
 */
import { SPEED_OF_LIGHT_M_PER_S } from "../constants.js";
import { entryPermittivity } from "../entry-permittivity.js";
import { cellStepM, nodeIndexAt, type YeeLayout } from "../grid.js";
import type { Medium } from "../medium-types.js";
import { planeWeights, type ModeFields } from "../modes/fields.js";
import {
  gridModes,
  isLeftHanded,
  placedModeWindow,
  type GridModeWindow,
} from "../modes/grid-modes.js";
import { modeNotes } from "../modes/mode-notes.js";
import { bendOf, type SolvedMode } from "../modes/solve.js";
import { RunRequestError, type ModeSourceSpec } from "../types.js";
import { AnalyticDrive } from "./analytic-drive.js";
import type { InjectionConfig } from "./injection.js";
import { backwardFree, type BackwardFree } from "./mode-impedance.js";
import { pulseFor, type PulseShape } from "./pulse.js";
import type { Source, SourceContext } from "./source.js";
import { tfsfInjection, upstreamHPlane, type TfsfPlane } from "./tfsf-plane.js";

export class ModeSource implements Source {
  readonly kind = "mode";
  readonly notes: string[] = [];
  readonly complex = false;
  readonly blochPhase: [number, number, number] = [0, 0, 0];
  readonly pulse: PulseShape;
  readonly plane: TfsfPlane;
  /** The source's mode at each recorded wavelength (the source wavelength's first). */
  readonly modes: SolvedMode[];
  /** a(ω), the mode launched forwards per recorded wavelength, (re, im) interleaved. */
  private readonly launched: Float64Array;
  private readonly window: GridModeWindow;
  private readonly drive: AnalyticDrive;
  /** e^{−i(β0Δ − ω0τ)}: the H terms' phase (see the module comment). */
  private readonly hPhase: [number, number];

  constructor(
    private readonly ctx: SourceContext,
    readonly spec: ModeSourceSpec,
  ) {
    const a = "xyz".indexOf(spec.direction[1]!);
    const sign = spec.direction[0] === "-" ? -1 : 1;
    const planeIndex = Math.round(nodeIndexAt(ctx.plan.axes[a], spec.center[a]));
    this.plane = { axis: a, sign, planeIndex, center: spec.center, size: spec.size };
    this.pulse = pulseFor(spec.wavelength, ctx.wavelengthsM);
    this.window = placedModeWindow(ctx.plan, a, planeIndex, spec.center, spec.size);
    this.modes = this.solve();
    const { factor, launched } = this.backwardFree();
    this.launched = launched;
    this.notes.push(injectedNote(this.modes[0]!, spec, ctx.medium));
    this.notes.push(...this.planeNotes());
    const m0 = this.modes[0]!;
    const delta = cellStepM(ctx.plan.axes[a], upstreamHPlane(this.plane)) / 2;
    const omega0 = ctx.omegas[0]!;
    const tau = ((m0.group_index ?? m0.n_eff) * delta) / SPEED_OF_LIGHT_M_PER_S;
    const phase = m0.n_eff * (omega0 / SPEED_OF_LIGHT_M_PER_S) * delta - omega0 * tau;
    this.hPhase = [Math.cos(phase), -Math.sin(phase)];
    this.drive = new AnalyticDrive(this.pulse, ctx.omegas, ctx.plan.dtSeconds, tau, factor);
  }

  /** What the mode's k_eff cannot say by itself (modes/mode-notes.ts). */
  private planeNotes(): string[] {
    const { axes, transverse } = this.window;
    const bend = bendOf(this.spec.mode_spec);
    const modes = this.modes.map((m) => [m]);
    return modeNotes(axes, transverse, bend, modes).map((note) => `mode source: ${note}`);
  }

  /**
   * The source's mode at every recorded wavelength, tracked from the source wavelength's
   * (whose group index sets the H terms' delay).
   */
  private solve(): SolvedMode[] {
    const { layout, medium, wavelengthsM, threads, checkStop, onModeSolved } = this.ctx;
    const spec = { ...this.spec.mode_spec, num_modes: this.spec.mode_index + 1 };
    const options = { groupIndex: "first" as const, threads, checkStop, onSolved: onModeSolved };
    const { modes } = gridModes(layout, medium, this.window, wavelengthsM, spec, options);
    return modes.map((found, w) => {
      const mode = found[this.spec.mode_index];
      if (mode) return mode;
      throw new RunRequestError(
        `mode source: its plane holds ${found.length} mode${found.length === 1 ? "" : "s"} at ` +
          `${Number((wavelengthsM[w]! * 1e6).toPrecision(6))} µm, not mode ${this.spec.mode_index} ` +
          `(counted from 0): ask for a lower mode_index or widen the plane ` +
          `(POST /v1/modes shows the plane's modes)`,
      );
    });
  }

  /**
   * The H terms' spectral factor and the amplitude a(ω) it launches (mode-impedance.ts), for
   * the +a modes, along +a whatever the plane's frame (a y-normal plane's is left-handed: its
   * overlaps count flux along −y); then, for a source along −a, the modes are turned round
   * (the overlaps of two turned modes are the same up to the sign of the normal).
   */
  private backwardFree(): BackwardFree {
    const weights = planeWeights(this.window.axes);
    const injected = this.modes[0]!.fields;
    const frame = isLeftHanded(this.window.normal) ? -1 : 1;
    const found = backwardFree(injected, this.modes, weights, this.ctx.omegas, this.pulse.omega0);
    for (let k = 0; k < found.launched.length; k++) found.launched[k]! *= frame;
    if (this.plane.sign < 0) for (const m of this.modes) backwards(m.fields);
    return found;
  }

  get fieldScaleVPerM(): number {
    const f = this.modes[0]!.fields;
    let peak = 0;
    for (const c of [f.Eu, f.Ev, f.Ew]) {
      for (let k = 0; k < c.re.length; k++) peak = Math.max(peak, Math.hypot(c.re[k]!, c.im[k]!));
    }
    return peak;
  }

  injection(layout: YeeLayout, medium: Medium, hCoefficient: number): InjectionConfig {
    return tfsfInjection(
      this.ctx.plan,
      layout,
      medium,
      hCoefficient,
      this.plane,
      (comp, _at, cells) => this.incident(comp, cells),
    );
  }

  /** The mode's component `comp` (0–5) at the given cells (grid indices along a+1, a+2). */
  private incident(comp: number, cells: readonly [number, number][]): Float64Array {
    const a = this.plane.axis;
    const [gu, gv] = [(a + 1) % 3, (a + 2) % 3];
    const { transverse, origin, cells: n } = this.window;
    const f = this.modes[0]!.fields;
    const isE = comp < 3;
    const along = comp % 3;
    const values =
      along === transverse[0]
        ? isE
          ? f.Eu
          : f.Hu
        : along === transverse[1]
          ? isE
            ? f.Ev
            : f.Hv
          : null;
    const out = new Float64Array(2 * cells.length);
    if (!values) return out;
    const [pr, pi] = isE ? [1, 0] : this.hPhase;
    const at = [0, 0, 0];
    cells.forEach(([iu, iv], q) => {
      at[gu] = iu;
      at[gv] = iv;
      const i = at[transverse[0]]! - origin[0];
      const j = at[transverse[1]]! - origin[1];
      if (i < 0 || j < 0 || i >= n[0] || j >= n[1]) return;
      const k = i * n[1] + j;
      out[2 * q] = values.re[k]! * pr - values.im[k]! * pi;
      out[2 * q + 1] = values.re[k]! * pi + values.im[k]! * pr;
    });
    return out;
  }

  advance(n: number, count: number, drive: Float64Array): void {
    this.drive.advance(n, count, drive);
  }

  attachMonitors(): void {}

  /** 2/C(ω) over a(ω): monitors read 1 W of the source's mode at every wavelength. */
  normalisation(): Float64Array {
    const out = this.drive.normalisation();
    this.modes.forEach((_, w) => {
      const [ar, ai] = [this.launched[2 * w]!, this.launched[2 * w + 1]!];
      const mag2 = ar * ar + ai * ai;
      const [nr, ni] = [out[2 * w]!, out[2 * w + 1]!];
      out[2 * w] = (nr * ar + ni * ai) / mag2;
      out[2 * w + 1] = (ni * ar - nr * ai) / mag2;
    });
    return out;
  }
}

/** The +a mode's fields turned into the −a mode's: H_t and E_a change sign. */
function backwards(f: ModeFields): void {
  for (const c of [f.Hu, f.Hv, f.Ew]) {
    for (let k = 0; k < c.re.length; k++) {
      c.re[k] = -c.re[k]!;
      c.im[k] = -c.im[k]!;
    }
  }
}

/**
 * What the run injects, for its report: the mode's n_eff and TE fraction at the source
 * wavelength, and a warning when n_eff is below every index on the plane but the highest's
 * cladding (a mode that does not guide: a target_neff far from the guide's, say).
 */
function injectedNote(m: SolvedMode, spec: ModeSourceSpec, medium: Medium): string {
  const base =
    `mode source: mode ${spec.mode_index} of its plane at λ = ${Number((spec.wavelength * 1e6).toPrecision(6))} µm, n_eff ` +
    `${m.n_eff.toPrecision(6)}, k_eff ${m.k_eff.toPrecision(3)}, TE fraction ` +
    `${m.te_fraction.toFixed(3)}`;
  // Each entry's ε at the source wavelength (epsEff alone is ε∞ where a material is stepped
  // with its poles: 1.31 for SiO2, whose ε is 2.09 at 1.55 µm).
  const omega = (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / spec.wavelength;
  const eps = Array.from(medium.epsEff, (_, e) => entryPermittivity(medium, e, omega).re);
  const lowest = Math.min(...eps.filter((e) => e >= 1));
  return m.n_eff < Math.sqrt(lowest)
    ? `${base}; its n_eff is below every material's index on the grid: it is not a guided ` +
        "mode (check mode_spec.target_neff and the plane's size)"
    : base;
}
