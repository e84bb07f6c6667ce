/**
 * Plane-wave source: a total-field/scattered-field (TFSF) plane (Taflove & Hagness §5.9, ch. 5)
 * normal to the dominant axis `a` of the propagation direction, two cells inside the upstream
 * face of the region of interest and spanning the whole cross-section. Downstream of it the
 * grid holds the total field, upstream only the scattered (reflected) field.
 *
 * The incident field comes from an auxiliary grid: the same Yee update on a 1×1 cross-section
 * along `a`, Bloch-periodic across with the source's transverse wavevector, CPML at both ends,
 * filled with the medium found at the source plane, and driven by a current sheet one cell
 * upstream of the TFSF plane. It therefore has exactly the main grid's numerical dispersion
 * (also for oblique incidence), and the TFSF plane injects the wave without leaking into the
 * scattered-field region.
 *
 * Time signal: the pulse every source shares (pulse.ts), driving the current sheet.
 *
 * Normalisation: the auxiliary grid records the incident E at the cell centre nearest the
 * origin along `a`; monitor phasors are multiplied by N(ω) chosen so that this incident
 * reading equals A·p̂·e^{ik·r} there: |E| = A and the dominant polarisation component has the
 * phase k·r (zero phase at the origin), exactly, at every recorded frequency.
 */
import { ETA0, SPEED_OF_LIGHT_M_PER_S } from "../constants.js";
import {
  cellStepM,
  centreIndexAt,
  centreM,
  coupledComponents,
  dualStepM,
  isHalfAlong,
  nodeM,
  YeeLayout,
  type AxisPlan,
  type GridPlan,
} from "../grid.js";
import { referenceKernel } from "../kernel.js";
import { permittivity, refractiveIndex } from "../dispersion/model.js";
import { ghostCopies } from "../boundaries.js";
import { remapStreams, splitGhosts } from "../invariant.js";
import { buildMedium, type UpdateMaterial } from "../medium.js";
import type { Medium } from "../medium-types.js";
import { cellCentreStreams, DftRecorder, type SampledComponent } from "../monitors.js";
import { DRIVE_VALUES_PER_STEP, type InjectionConfig } from "./injection.js";
import { grazingNote } from "./grazing-note.js";
import { currentSample, pulseFor, type PulseShape } from "./pulse.js";
import type { PlaneWaveSpec, Vec3 } from "../types.js";
import type { PlacedMonitor, Source, SourceContext } from "./source.js";
import { buildGridModel, YeeGrid } from "../yee.js";
import { numberText } from "../number-text.js";

/** Absorber cells at each end of the auxiliary line (1-D, so a thick one costs nothing). */
export const AUX_PML_LAYERS = 48;

/** Cells between the upstream face of the region of interest and the TFSF plane. */
export const TFSF_OFFSET_CELLS = 2;

export interface PlaneWaveGeometry {
  /** Unit propagation direction. */
  direction: Vec3;
  /** Unit E polarisation (DESIGN §1: te ⟂ plane of direction and z, tm = ŝ × d). */
  polarization: Vec3;
  /** Dominant axis of the direction and its sign. */
  axis: number;
  sign: 1 | -1;
  /** |d_a|: cosine of the angle to the sheet normal. */
  cosTheta: number;
}

const cross = (u: Vec3, v: Vec3): Vec3 => [
  u[1] * v[2] - u[2] * v[1],
  u[2] * v[0] - u[0] * v[2],
  u[0] * v[1] - u[1] * v[0],
];
const dot = (u: Vec3, v: Vec3) => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
const norm = (u: Vec3) => Math.hypot(u[0], u[1], u[2]);
const scale = (u: Vec3, s: number): Vec3 => [u[0] * s, u[1] * s, u[2] * s];

/** Direction components below this (after normalisation) count as zero. */
const DIRECTION_EPS = 1e-9;

/**
 * te: ŝ = (ẑ × d)/|ẑ × d|, or ŷ when d ∥ z; tm: p̂ = ŝ × d. So te along +z has E ∥ y, tm along
 * +z has E ∥ x, te along +x has E ∥ y and tm along +x has E ∥ −z.
 */
export function planeWaveGeometry(source: PlaneWaveSpec): PlaneWaveGeometry {
  // Over the largest component first: the length of finite components can overflow (three of
  // 1.8e308) or underflow (5e-324), which made the unit vector 0/0 or x/∞ (issue #26).
  const peak = Math.max(...source.direction.map(Math.abs));
  const scaled = source.direction.map((v) => v / peak) as Vec3;
  const len = norm(scaled);
  const d = scaled.map((v) => {
    const u = v / len;
    return Math.abs(u) < DIRECTION_EPS ? 0 : u;
  }) as Vec3;
  const dn = scale(d, 1 / norm(d));
  const zxd = cross([0, 0, 1], dn);
  const s: Vec3 = norm(zxd) > DIRECTION_EPS ? scale(zxd, 1 / norm(zxd)) : [0, 1, 0];
  const e = source.polarization === "te" ? s : cross(s, dn);
  let axis = 0;
  // Ties (e.g. 45° in the x–z plane) go to the later axis: z, then y.
  for (let a = 1; a < 3; a++) if (Math.abs(dn[a]) >= Math.abs(dn[axis]) - 1e-12) axis = a;
  return {
    direction: dn,
    polarization: e.map((v) => (Math.abs(v) < DIRECTION_EPS ? 0 : v)) as Vec3,
    axis,
    sign: dn[axis] >= 0 ? 1 : -1,
    cosTheta: Math.abs(dn[axis]),
  };
}

/** Re n of an update material at ω (its poles included). */
function realIndex(m: UpdateMaterial, omega: number): number {
  if (!m.poles) return Math.sqrt(m.epsRe);
  return refractiveIndex({ epsInf: m.epsRe, sigma: m.sigma, poles: m.poles }, omega).n;
}

/**
 * The Bloch phase across the main grid along each axis, k_b·(cells·h) (0 along the propagation
 * axis and where k_b = 0).
 * @throws Error where k_b ≠ 0 across a boundary that is not periodic or a graded axis
 */
function mainBlochPhases(mainPlan: GridPlan, kt: Vec3): [number, number, number] {
  return [0, 1, 2].map((b) => {
    if (kt[b] === 0) return 0;
    const across = mainPlan.axes[b];
    if (across.boundary !== "periodic") {
      throw new Error("oblique incidence needs periodic boundaries across the direction");
    }
    // The discrete plane wave the auxiliary line computes is the main grid's only where the
    // cells across are all alike (checks/source.ts refuses mesh overrides there).
    if (across.uniformStepM === null) {
      throw new Error("oblique incidence needs a uniform grid across the direction");
    }
    return kt[b] * across.cells * across.uniformStepM;
  }) as [number, number, number];
}

/**
 * The auxiliary line's axes: along `a`, the main axis' nodes with AUX_PML_LAYERS absorber
 * cells of the end steps either side (main node i is aux node i + auxShift); across, one
 * periodic cell, whose step matters only with a Bloch phase along it, where the main grid is
 * uniform.
 */
function auxiliaryAxes(mainPlan: GridPlan, a: number, auxShift: number): GridPlan["axes"] {
  const ax = mainPlan.axes[a];
  return [0, 1, 2].map((b): AxisPlan => {
    if (b === a) {
      const cells = ax.interiorCells + 2 * AUX_PML_LAYERS;
      const nodesM = Float64Array.from({ length: cells + 1 }, (_, i) => nodeM(ax, i - auxShift));
      return {
        ...ax,
        pmlLo: AUX_PML_LAYERS,
        pmlHi: AUX_PML_LAYERS,
        cells,
        originM: nodesM[0]!,
        nodesM,
      };
    }
    const m = mainPlan.axes[b];
    const step = m.uniformStepM ?? mainPlan.baseStepM;
    return {
      boundary: "periodic",
      mirror: "none",
      requestedSizeM: step,
      interiorCells: 1,
      pmlLo: 0,
      pmlHi: 0,
      cells: 1,
      originM: m.originM,
      nodesM: Float64Array.of(m.originM, m.originM + step),
      uniformStepM: step,
      minStepM: step,
      maxStepM: step,
    };
  }) as GridPlan["axes"];
}

/**
 * Current sheet K (A/m) that radiates E = A·p̂ downstream, from the continuum sheet
 * impedances η/cosθ (s) and η·cosθ (p) in a medium of index n; exactness does not matter,
 * N(ω) normalises.
 */
function sheetCurrent(g: PlaneWaveGeometry, amplitude: number, n: number): Vec3 {
  const a = g.axis;
  const eta = ETA0 / n;
  const e = g.polarization;
  const normal: Vec3 = [0, 0, 0];
  normal[a] = 1;
  const dt: Vec3 = [0, 0, 0];
  for (let b = 0; b < 3; b++) if (b !== a) dt[b] = g.direction[b];
  let sheet: Vec3;
  if (norm(dt) < DIRECTION_EPS) {
    sheet = scale(e, (-2 * amplitude) / eta);
  } else {
    const kHat = scale(dt, 1 / norm(dt));
    const sHat = cross(normal, kHat);
    const es = dot(e, sHat) * g.cosTheta;
    const ep = dot(e, kHat) / g.cosTheta;
    sheet = scale(
      [0, 1, 2].map((b) => es * sHat[b] + ep * kHat[b]) as Vec3,
      (-2 * amplitude) / eta,
    );
  }
  sheet[a] = 0;
  return sheet;
}

/**
 * Transverse phase factors cos and sin of k_b·i·h over the main grid's indices along each
 * axis, ghosts included (uniform across wherever k_b ≠ 0; 1 and 0 elsewhere).
 */
function transversePhases(mainPlan: GridPlan, kt: Vec3): [Float64Array[], Float64Array[]] {
  const cosines: Float64Array[] = [];
  const sines: Float64Array[] = [];
  for (let b = 0; b < 3; b++) {
    const count = mainPlan.axes[b].cells + 2;
    const c = new Float64Array(count).fill(1);
    const s = new Float64Array(count);
    const h = mainPlan.axes[b].uniformStepM;
    if (kt[b] !== 0 && h !== null) {
      for (let i = 0; i < count; i++) {
        c[i] = Math.cos(kt[b] * (i - 1) * h);
        s[i] = Math.sin(kt[b] * (i - 1) * h);
      }
    }
    cosines.push(c);
    sines.push(s);
  }
  return [cosines, sines];
}

export interface PlaneWaveSetup {
  geometry: PlaneWaveGeometry;
  pulse: PulseShape;
  amplitude: number;
  /** Medium at the source plane (vacuum unless a structure fills the whole plane). */
  medium: UpdateMaterial;
  /** Angular frequencies the monitors (and so the reference) record. */
  omegas: Float64Array;
}

export class PlaneWaveSource implements Source {
  readonly kind = "plane_wave";
  readonly notes: string[] = [];
  readonly geometry: PlaneWaveGeometry;
  readonly pulse: PulseShape;
  readonly aux: YeeGrid;
  /** Transverse wavevector per axis (rad/m), zero along the propagation axis. */
  readonly kTransverse: Vec3;
  /** Bloch phases k·L of the main grid's axes. */
  readonly blochPhase: [number, number, number];
  readonly complex: boolean;
  /** The amplitude of its E. */
  get fieldScaleVPerM(): number {
    return this.setup.amplitude;
  }
  /** Node index of the TFSF plane along the propagation axis. */
  readonly tfsfIndex: number;
  readonly reference: DftRecorder;
  private readonly setup: PlaneWaveSetup;
  private readonly mainPlan: GridPlan;
  private readonly sourceIndex: number;
  private readonly auxShift: number;
  private readonly sheet: Vec3;
  /** The aux line's axes (its transverse cells' steps set the Bloch phases there). */
  private readonly auxAxes: GridPlan["axes"];
  /** The dual step along the axis at the sheet's node: J = K/Δ. */
  private readonly sheetStepM: number;
  private readonly refCoord: Vec3;
  private readonly phaseCos: Float64Array[];
  private readonly phaseSin: Float64Array[];
  /** Where `advance` samples the incident field: aux component and flat index per slot. */
  private readonly incidentAt: { comp: number; index: number }[];
  /** Cell index of the reference sample along the propagation axis (main grid). */
  private readonly kRef: number;
  /**
   * Whether the auxiliary line is stepped as a real line (normal incidence: YeeGrid.updateLine,
   * with its medium's poles too), its ghosts left unfilled and its samples read off real cells.
   */
  private readonly realLine: boolean;
  /** The incident field along the axis at the monitors' DFT cadence (flux monitors only). */
  private incidentLine: { recorder: DftRecorder; first: number; every: number } | null = null;

  /**
   * The plane wave of a run: its pulse covers every recorded wavelength, its auxiliary line
   * holds the medium found at the source plane.
   */
  static forRun(ctx: SourceContext, spec: PlaneWaveSpec): PlaneWaveSource {
    const geometry = planeWaveGeometry(spec);
    const pulse = pulseFor(
      spec.wavelength,
      ctx.wavelengthsM,
      Math.sqrt(1 - geometry.cosTheta ** 2),
    );
    const notes: string[] = [];
    const medium = sourcePlaneMedium(ctx, geometry, notes);
    const source = new PlaneWaveSource(ctx.plan, {
      geometry,
      pulse,
      amplitude: spec.amplitude,
      medium,
      omegas: ctx.omegas,
    });
    source.notes.push(...notes, ...planeWaveNotes(ctx.plan, source));
    const grazing = grazingNote({
      sourceIndex: realIndex(medium, pulse.omega0),
      lowestIndex: lowestEndIndex(ctx, geometry.axis, pulse.omega0),
      sinTheta: Math.sqrt(1 - geometry.cosTheta ** 2),
      wavelengthM: spec.wavelength,
      wavelengthsM: ctx.wavelengthsM,
    });
    if (grazing) source.notes.push(grazing);
    return source;
  }

  constructor(mainPlan: GridPlan, setup: PlaneWaveSetup) {
    this.setup = setup;
    this.mainPlan = mainPlan;
    const g = setup.geometry;
    this.geometry = g;
    this.pulse = setup.pulse;
    const a = g.axis;
    const n = realIndex(setup.medium, setup.pulse.omega0);
    const k0 = (setup.pulse.omega0 / SPEED_OF_LIGHT_M_PER_S) * n;
    const kt: Vec3 = [0, 0, 0];
    for (let b = 0; b < 3; b++) if (b !== a) kt[b] = k0 * g.direction[b];
    this.kTransverse = kt;
    this.complex = kt[0] !== 0 || kt[1] !== 0 || kt[2] !== 0;
    this.blochPhase = mainBlochPhases(mainPlan, kt);

    // The auxiliary line: the main axis' region of interest with its own, much thicker
    // absorber (so the incident field carries no absorber reflection that the TFSF plane
    // would then hide), one periodic cell across. Main node i is aux node i + auxShift.
    const ax = mainPlan.axes[a];
    this.auxShift = AUX_PML_LAYERS - ax.pmlLo;
    const auxAxes = auxiliaryAxes(mainPlan, a, this.auxShift);
    const auxPlan: GridPlan = {
      ...mainPlan,
      axes: auxAxes,
      uniform: auxAxes.every((x) => x.uniformStepM === mainPlan.baseStepM),
    };
    this.auxAxes = auxAxes;
    const auxLayout = YeeLayout.ofPlan(auxPlan);
    const auxMedium = buildMedium(auxPlan, auxLayout, setup.medium, []);
    this.aux = new YeeGrid(
      buildGridModel(auxPlan, auxLayout, auxMedium, {
        complex: this.complex,
        blochPhase: [0, 1, 2].map((b) => (b === a ? 0 : kt[b] * cellStepM(auxAxes[b], 0))) as [
          number,
          number,
          number,
        ],
        omega0: setup.pulse.omega0,
      }),
    );

    this.realLine = !this.complex;

    this.tfsfIndex =
      g.sign > 0 ? ax.pmlLo + TFSF_OFFSET_CELLS : ax.cells - ax.pmlHi - TFSF_OFFSET_CELLS;
    this.sourceIndex = this.tfsfIndex - g.sign + this.auxShift;
    const auxIndex = (mainIndex: number) => {
      const pos = [0, 0, 0];
      pos[a] = mainIndex + this.auxShift;
      return auxLayout.index(pos[0], pos[1], pos[2]);
    };
    const hIdx = g.sign > 0 ? this.tfsfIndex - 1 : this.tfsfIndex;
    const [u, v] = [(a + 1) % 3, (a + 2) % 3];
    this.incidentAt = [
      { comp: v, index: auxIndex(this.tfsfIndex) },
      { comp: u, index: auxIndex(this.tfsfIndex) },
      { comp: 3 + v, index: auxIndex(hIdx) },
      { comp: 3 + u, index: auxIndex(hIdx) },
    ];

    this.sheet = sheetCurrent(g, setup.amplitude, n);

    // Reference sample: the cell centre nearest the origin along a, downstream of the sheet.
    let kRef = Math.round(centreIndexAt(ax, 0));
    kRef = g.sign > 0 ? Math.max(kRef, this.tfsfIndex) : Math.min(kRef, this.tfsfIndex - 1);
    this.kRef = kRef;
    const lo: [number, number, number] = [0, 0, 0];
    lo[a] = kRef + this.auxShift;
    const refStreams = cellCentreStreams(auxLayout, { lo, hi: [lo[0], lo[1], lo[2]] }, [0, 1, 2]);
    this.reference = new DftRecorder(
      this.realLine ? this.realCellStreams(refStreams) : refStreams,
      setup.omegas,
    );
    this.refCoord = [0, 1, 2].map((b) =>
      b === a ? centreM(ax, kRef) : centreM(auxAxes[b], 0),
    ) as Vec3;
    this.sheetStepM = dualStepM(ax, this.tfsfIndex - g.sign);

    [this.phaseCos, this.phaseSin] = transversePhases(mainPlan, kt);
  }

  /**
   * Streams of the auxiliary line that read, instead of its ghosts across the line, the real
   * cell each is a copy of (a real line's ghosts are not kept: YeeGrid.updateLine).
   */
  private realCellStreams(streams: SampledComponent[]): SampledComponent[] {
    const layout = this.aux.layout;
    const across = [0, 1, 2].map((b) => b !== this.geometry.axis);
    const { thin } = splitGhosts(ghostCopies(layout, [0, 0, 0]), across);
    const remapped = remapStreams(streams, layout, across, thin);
    if (!remapped) throw new Error("the incident reference sample spans several cells");
    return remapped;
  }

  /** Aux H half step. */
  private stepAuxH(): void {
    if (this.realLine) {
      this.aux.updateLine("H", this.geometry.axis);
      return;
    }
    this.aux.updateH(referenceKernel);
    this.aux.fillGhostsH();
  }

  /** Aux E half step from t to t + dt with the current sheet (its mid time is (n+½)·dt). */
  private stepAuxE(t: number): void {
    const aux = this.aux;
    const a = this.geometry.axis;
    if (this.realLine) aux.updateLine("E", a);
    else aux.updateE(referenceKernel);
    const g = currentSample(this.pulse, t, this.mainPlan.dtSeconds);
    for (let b = 0; b < 3; b++) {
      if (b === a || this.sheet[b] === 0) continue;
      const pos: [number, number, number] = [0, 0, 0];
      pos[a] = this.sourceIndex;
      const p = aux.layout.index(pos[0], pos[1], pos[2]);
      const cb = aux.medium.cb[aux.medium.index[b][p]];
      // E_b sits half a cell along b: its sheet current carries the phase e^{i k_b h/2}. The
      // sheet K spreads over the dual cell of its node along a: J = K/Δ.
      const phase = this.kTransverse[b] * cellStepM(this.auxAxes[b], 0) * 0.5;
      const j = (this.sheet[b] * g) / this.sheetStepM;
      aux.re.c[b][p] -= cb * j * Math.cos(phase);
      if (aux.im) aux.im.c[b][p] -= cb * j * Math.sin(phase);
    }
    aux.updatePolarization();
    if (!this.realLine) aux.fillGhostsE();
  }

  /**
   * The TFSF corrections of the main grid (tfsf.ts) for its layout, medium and dt/μ0: per
   * half step two terms on the plane normal to the propagation axis, whose incident values
   * `advance` samples from the auxiliary line (E at the TFSF plane, H half a cell upstream).
   */
  injection(layout: YeeLayout, medium: Medium, hCoefficient: number): InjectionConfig {
    const g = this.geometry;
    const a = g.axis;
    const u = (a + 1) % 3;
    const v = (a + 2) % 3;
    const sg = g.sign;
    const s = this.tfsfIndex;
    const hIdx = sg > 0 ? s - 1 : s;
    // The differences the kernels take across the plane: E across cell hIdx for H, H across
    // node s (its dual step) for E.
    const ax = this.mainPlan.axes[a];
    const kH = hCoefficient / cellStepM(ax, hIdx);
    const kE = 1 / dualStepM(ax, s);
    // w = coef·(cb of the cell, E only)·e^{i(θu + θv)} over the component's cross-section.
    const term = (comp: number, plane: number, slot: number, coef: number, useCb: boolean) => {
      const nv = layout.n[v] + 2;
      const wRe = new Float64Array((layout.n[u] + 2) * nv);
      const wIm = new Float64Array(wRe.length);
      const idx = medium.index[comp];
      const [cu, su, cv, sv] = [
        this.phaseCos[u],
        this.phaseSin[u],
        this.phaseCos[v],
        this.phaseSin[v],
      ];
      for (let iu = layout.lo[comp * 3 + u]; iu <= layout.hi[comp * 3 + u]; iu++) {
        for (let iv = layout.lo[comp * 3 + v]; iv <= layout.hi[comp * 3 + v]; iv++) {
          const pos = [0, 0, 0];
          pos[a] = plane;
          pos[u] = iu;
          pos[v] = iv;
          const cb = useCb ? medium.cb[idx[layout.index(pos[0], pos[1], pos[2])]] : 1;
          const w = coef * cb;
          // e^{i(θu + θv)}
          wRe[(iu + 1) * nv + iv + 1] = w * (cu[iu + 1] * cv[iv + 1] - su[iu + 1] * sv[iv + 1]);
          wIm[(iu + 1) * nv + iv + 1] = w * (su[iu + 1] * cv[iv + 1] + cu[iu + 1] * sv[iv + 1]);
        }
      }
      return { comp, plane, slot, wRe, wIm };
    };
    // Slots (advance): 0 Einc_v(s), 1 Einc_u(s), 2 Hinc_v(hIdx), 3 Hinc_u(hIdx). A term whose
    // incident component the auxiliary line never excites (it stays exactly zero) is left
    // out: it would add zero, and without it a backend can see which components the source
    // drives (a grid invariant along an axis then steps only the polarisation it excites).
    const excited = this.excitedIncident();
    const h = [
      excited[v] ? term(3 + u, hIdx, 0, -sg * kH, false) : null,
      excited[u] ? term(3 + v, hIdx, 1, sg * kH, false) : null,
    ];
    const e = [
      excited[3 + v] ? term(u, s, 2, sg * kE, true) : null,
      excited[3 + u] ? term(v, s, 3, -sg * kE, true) : null,
    ];
    return {
      axis: a,
      h: h.filter((t) => t !== null),
      e: e.filter((t) => t !== null),
    };
  }

  /**
   * The components of the auxiliary line that its current sheet can make nonzero: the sheet
   * drives E_b where sheet[b] ≠ 0, and the line varies along the propagation axis and along
   * the transverse axes with a nonzero wavevector only (grid.ts coupledComponents). At normal
   * incidence that is one transverse E and the H across it per polarisation direction.
   */
  private excitedIncident(): boolean[] {
    const a = this.geometry.axis;
    const driven = [0, 1, 2].filter((b) => b !== a && this.sheet[b] !== 0);
    const varies = [0, 1, 2].map((b) => b === a || this.kTransverse[b] !== 0);
    return coupledComponents(driven, varies);
  }

  /**
   * Advances the auxiliary line `count` time steps from step n and writes, for each step l,
   * the incident samples the TFSF terms of step n + l use (aux E^{n+l} at the TFSF plane and
   * aux H^{n+l+½} half a cell upstream, slots as in `injection`) to
   * `incident[DRIVE_VALUES_PER_STEP·l …]`; records the incident reference at every step.
   */
  advance(n: number, count: number, incident: Float64Array): void {
    const dt = this.mainPlan.dtSeconds;
    const aux = this.aux;
    for (let l = 0; l < count; l++) {
      this.stepAuxH();
      // The E samples are still E^{n+l}: aux E moves on only below.
      const at = DRIVE_VALUES_PER_STEP * l;
      this.incidentAt.forEach(({ comp, index }, slot) => {
        incident[at + 2 * slot] = aux.re.c[comp][index];
        incident[at + 2 * slot + 1] = aux.im ? aux.im.c[comp][index] : 0;
      });
      this.stepAuxE((n + l) * dt);
      this.reference.record(aux.re, aux.im, (n + l + 1) * dt, (n + l + 0.5) * dt);
      const line = this.incidentLine;
      if (line && (n + l + 1) % line.every === 0) {
        line.recorder.record(aux.re, aux.im, (n + l + 1) * dt, (n + l + 0.5) * dt, line.every);
      }
    }
  }

  /**
   * Flux monitors add or remove the incident field (flux.ts): record it along the whole region
   * of interest, one index beyond on each side. Field monitors with samples upstream of the
   * TFSF plane record only the scattered field there: a note says so.
   */
  attachMonitors(monitors: readonly PlacedMonitor[], dftEvery: number): void {
    const { axis, sign } = this.geometry;
    const ax = this.mainPlan.axes[axis];
    if (monitors.some((m) => m.flux)) {
      this.recordIncidentLine(ax.pmlLo - 1, ax.cells - ax.pmlHi + 1, dftEvery);
    }
    const s = this.tfsfIndex;
    for (const m of monitors) {
      // Flux monitors add the incident field back where the grid holds only the scattered one.
      if (m.flux) continue;
      const upstream = sign > 0 ? m.box.lo[axis] + 0.5 < s : m.box.hi[axis] + 0.5 > s;
      if (upstream) {
        this.notes.push(
          `monitor "${m.name}" has samples upstream of the source plane at ` +
            `${"xyz"[axis]} = ${metres(nodeM(ax, s))} m: there it records only the scattered field`,
        );
      }
    }
  }

  /**
   * Starts recording every component of the incident field at main-grid indices
   * `first`…`last` along the propagation axis, with the monitors' DFT cadence and time stamps
   * (a sample after every step that is a multiple of `every`, weighted by it), so that flux
   * monitors can add or remove it exactly (flux.ts). Call before the first step.
   */
  recordIncidentLine(first: number, last: number, every: number): void {
    const a = this.geometry.axis;
    const base = new Int32Array(last - first + 1);
    for (let k = first; k <= last; k++) {
      const pos = [0, 0, 0];
      pos[a] = k + this.auxShift;
      base[k - first] = this.aux.layout.index(pos[0], pos[1], pos[2]);
    }
    const one = new Int32Array([0]);
    const streams = [0, 1, 2, 3, 4, 5].map((comp) => ({ comp, base, offsets: one }));
    this.incidentLine = { recorder: new DftRecorder(streams, this.setup.omegas), first, every };
  }

  /**
   * The incident field's raw DFT sums (the monitors' units) at the stored samples of a
   * stream (flux.ts), per frequency index in `frequencies` and point, interleaved (re, im):
   * each point is the mean over the stream's offsets of the incident value there, counted
   * only where the main grid holds `where` the other field: with `where` "scattered" the
   * offsets upstream of the TFSF plane (add it to get the total field), with "total" those
   * downstream (subtract it to get the scattered field).
   */
  incidentSums(
    stream: SampledComponent,
    layout: YeeLayout,
    frequencies: readonly number[],
    where: "scattered" | "total",
  ): Float64Array {
    const line = this.incidentLine;
    if (!line) throw new Error("recordIncidentLine() was not called");
    const a = this.geometry.axis;
    const [u, v] = [(a + 1) % 3, (a + 2) % 3];
    const sums = line.recorder.sums[stream.comp];
    const P = line.recorder.streams[0].base.length;
    const isNode = !isHalfAlong(stream.comp, a);
    const s = this.tfsfIndex;
    // Which stored indices along a hold the total field (tfsf.ts): nodes from s on (sign > 0)
    // or up to s; half positions k + ½ from s on, or up to s − 1.
    const total = (k: number) => (this.geometry.sign > 0 ? k >= s : isNode ? k <= s : k <= s - 1);
    const W = frequencies.length;
    const points = stream.base.length;
    const out = new Float64Array(2 * W * points);
    const weight = 1 / stream.offsets.length;
    const [sx, sy] = layout.strides;
    for (let q = 0; q < points; q++) {
      for (const off of stream.offsets) {
        const p = stream.base[q] + off;
        const idx = [Math.floor(p / sx) - 1, Math.floor((p % sx) / sy) - 1, (p % sy) - 1];
        if (total(idx[a]) !== (where === "total")) continue;
        const at = idx[a] - line.first;
        // e^{i k_t·r} of the stored transverse indices, as the TFSF terms use.
        const pc =
          this.phaseCos[u][idx[u] + 1] * this.phaseCos[v][idx[v] + 1] -
          this.phaseSin[u][idx[u] + 1] * this.phaseSin[v][idx[v] + 1];
        const ps =
          this.phaseSin[u][idx[u] + 1] * this.phaseCos[v][idx[v] + 1] +
          this.phaseCos[u][idx[u] + 1] * this.phaseSin[v][idx[v] + 1];
        for (let w = 0; w < W; w++) {
          const o = 2 * (frequencies[w] * P + at);
          const re = sums[o];
          const im = sums[o + 1];
          out[2 * (w * points + q)] += weight * (re * pc - im * ps);
          out[2 * (w * points + q) + 1] += weight * (re * ps + im * pc);
        }
      }
    }
    return out;
  }

  /**
   * The incident wave's Poynting flux density along the propagation axis, ½·Re(E_u·H_v* −
   * E_v·H_u*), at main-grid node `node` (default: the reference node) in raw DFT units
   * (multiply by |N|² for W/m²), computed on the grid exactly as flux monitors compute theirs
   * (flux.ts), per recorded frequency. A plane normalised by the density at its own node reads
   * 1 exactly in vacuum, on a graded grid too: the mean of H over the two cells either side
   * is smaller than H at the node by cos(θ/2), θ the wave's phase across a cell, which differs
   * between cells of different steps (0.6 % in power between 25 and 5 nm cells at λ = 1 µm).
   */
  incidentFluxDensity(frequency: number, node = this.kRef): number {
    const line = this.incidentLine;
    if (!line) throw new Error("recordIncidentLine() was not called");
    const a = this.geometry.axis;
    const [u, v] = [(a + 1) % 3, (a + 2) % 3];
    const P = line.recorder.streams[0].base.length;
    const at = (comp: number, k: number) => {
      const o = 2 * (frequency * P + k - line.first);
      return [line.recorder.sums[comp][o], line.recorder.sums[comp][o + 1]];
    };
    const k = node;
    const hAvg = (comp: number) => {
      const [r0, i0] = at(comp, k - 1);
      const [r1, i1] = at(comp, k);
      return [(r0 + r1) / 2, (i0 + i1) / 2];
    };
    const [eur, eui] = at(u, k);
    const [evr, evi] = at(v, k);
    const [hur, hui] = hAvg(3 + u);
    const [hvr, hvi] = hAvg(3 + v);
    return 0.5 * (eur * hvr + eui * hvi - (evr * hur + evi * hui));
  }

  /**
   * cos θ of the incident wave at recorded frequency `frequency` in the source's medium: the
   * transverse wavevector is fixed (Bloch), so the angle grows with the wavelength,
   * sin θ(λ) = sin θ0·λ/λ0. 0 where the wave is evanescent; the geometry's cos θ at normal
   * incidence.
   */
  cosThetaAt(frequency: number): number {
    const kt = this.kTransverse;
    const kt2 = kt[0] * kt[0] + kt[1] * kt[1] + kt[2] * kt[2];
    if (kt2 === 0) return this.geometry.cosTheta;
    const n = realIndex(this.setup.medium, this.pulse.omega0);
    const k = (this.reference.omegas[frequency]! / SPEED_OF_LIGHT_M_PER_S) * n;
    return k * k > kt2 ? Math.sqrt(k * k - kt2) / k : 0;
  }

  /**
   * N(ω) per recorded frequency as interleaved (re, im): multiply raw monitor sums by it.
   * Frequencies at which the fixed transverse wavevector makes the wave evanescent get 0.
   */
  normalisation(): Float64Array {
    const ref = this.reference;
    const W = ref.omegas.length;
    const out = new Float64Array(2 * W);
    const g = this.geometry;
    const e = g.polarization;
    let dom = 0;
    for (let c = 1; c < 3; c++) if (Math.abs(e[c]) > Math.abs(e[dom])) dom = c;
    const sigma = e[dom] >= 0 ? 1 : -1;
    const n = realIndex(this.setup.medium, this.pulse.omega0);
    const kt = this.kTransverse;
    const kt2 = kt[0] * kt[0] + kt[1] * kt[1] + kt[2] * kt[2];
    const a = g.axis;
    for (let w = 0; w < W; w++) {
      const k = (ref.omegas[w] / SPEED_OF_LIGHT_M_PER_S) * n;
      const ka2 = k * k - kt2;
      let mag2 = 0;
      for (let c = 0; c < 3; c++) mag2 += ref.sums[c][2 * w] ** 2 + ref.sums[c][2 * w + 1] ** 2;
      if (ka2 <= 0 || mag2 === 0) continue;
      const ka = g.sign * Math.sqrt(ka2);
      let phase = ka * this.refCoord[a];
      for (let b = 0; b < 3; b++) if (b !== a) phase += kt[b] * this.refCoord[b];
      const rr = ref.sums[dom][2 * w];
      const ri = ref.sums[dom][2 * w + 1];
      const rAbs = Math.hypot(rr, ri);
      // N = A·σ·e^{iφ}·|R_dom| / (R_dom·|R|)
      const scaleN = (this.setup.amplitude * sigma * rAbs) / (rAbs * rAbs * Math.sqrt(mag2));
      // 1/R_dom = conj(R_dom)/|R_dom|²  →  multiply e^{iφ}·conj(R_dom)
      const cr = Math.cos(phase);
      const ci = Math.sin(phase);
      out[2 * w] = scaleN * (cr * rr + ci * ri);
      out[2 * w + 1] = scaleN * (ci * rr - cr * ri);
    }
    return out;
  }
}

/** Six significant digits: -9.2e-7, not -9.199999999999999e-7. */
const metres = (v: number) => numberText(v);

/**
 * The medium the incident wave travels in at the TFSF plane: that of the plane when one
 * material fills it, else vacuum (and a note, since the TFSF plane then is approximate).
 */
function sourcePlaneMedium(
  ctx: SourceContext,
  geometry: PlaneWaveGeometry,
  notes: string[],
): UpdateMaterial {
  const { layout, medium } = ctx;
  const { axis, sign } = geometry;
  const ax = ctx.plan.axes[axis];
  const s = sign > 0 ? ax.pmlLo + TFSF_OFFSET_CELLS : ax.cells - ax.pmlHi - TFSF_OFFSET_CELLS;
  const u = (axis + 1) % 3;
  const v = (axis + 2) % 3;
  const entries = new Set<number>();
  for (let c = 0; c < 3 && entries.size < 2; c++) {
    if (c === axis) continue;
    for (let iu = layout.lo[c * 3 + u]; iu <= layout.hi[c * 3 + u] && entries.size < 2; iu++) {
      for (let iv = layout.lo[c * 3 + v]; iv <= layout.hi[c * 3 + v]; iv++) {
        const pos = [0, 0, 0];
        pos[axis] = s;
        pos[u] = iu;
        pos[v] = iv;
        entries.add(medium.index[c][layout.index(pos[0], pos[1], pos[2])]);
        if (entries.size > 1) break;
      }
    }
  }
  if (entries.size > 1) {
    notes.push(
      "structures cross the plane-wave source plane non-uniformly: the incident field is " +
        "computed for vacuum there, so the injection is approximate",
    );
    return { epsRe: 1, sigma: 0 };
  }
  return entryMaterial(medium, Math.max([...entries][0] ?? -1, 0));
}

/** The update material of the medium's entry `e` (its poles where it has any). */
function entryMaterial(medium: Medium, e: number): UpdateMaterial {
  const poles = medium.poles?.[e];
  return {
    epsRe: medium.epsEff[e]!,
    sigma: medium.sigma[e]!,
    ...(poles && poles.length > 0 ? { poles } : {}),
  };
}

/**
 * The lower Re n at ω of the two media the propagation axis ends in, on the grid's first
 * transverse row: the half-spaces a wave leaves through, where it can run grazing. A film
 * between them is crossed by its evanescent field whatever its index, and a metal (Re ε ≤ 0)
 * carries no propagating wave to graze: neither counts (Infinity where no end does).
 */
function lowestEndIndex(ctx: SourceContext, axis: number, omega: number): number {
  const { layout, medium } = ctx;
  const c = (axis + 1) % 3;
  const pos = [layout.lo[c * 3]!, layout.lo[c * 3 + 1]!, layout.lo[c * 3 + 2]!];
  let lowest = Number.POSITIVE_INFINITY;
  for (const k of [layout.lo[c * 3 + axis]!, layout.hi[c * 3 + axis]!]) {
    pos[axis] = k;
    const m = entryMaterial(medium, medium.index[c][layout.index(pos[0]!, pos[1]!, pos[2]!)]!);
    const epsRe = permittivity({ epsInf: m.epsRe, sigma: m.sigma, poles: m.poles ?? [] }, omega).re;
    if (epsRe > 0) lowest = Math.min(lowest, realIndex(m, omega));
  }
  return lowest;
}

/** Notes on the plane wave's approximations: truncation by transverse PML, oblique incidence. */
function planeWaveNotes(plan: GridPlan, source: PlaneWaveSource): string[] {
  const notes: string[] = [];
  const { axis, cosTheta } = source.geometry;
  for (let a = 0; a < 3; a++) {
    if (a !== axis && plan.axes[a].boundary === "pml") {
      notes.push(
        `the plane wave is truncated by the pml boundaries along ${"xyz"[a]}: fields ` +
          "within a few wavelengths of those faces are approximate",
      );
    }
  }
  if (source.complex) {
    const deg = (Math.acos(cosTheta) * 180) / Math.PI;
    notes.push(
      `oblique incidence (${deg.toFixed(2)}° from the ${"xyz"[axis]} axis) uses ` +
        "Bloch-periodic boundaries with the transverse wavevector fixed at the source " +
        "wavelength; at another wavelength λ the angle is asin(sin θ0 · λ/λ0)",
    );
  }
  return notes;
}
