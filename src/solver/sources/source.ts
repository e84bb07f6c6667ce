/**
 * What every source is to the rest of the solver (the seam of DESIGN §10): the shared time
 * profile (pulse.ts) and injection terms (injection.ts) that every backend applies alike, the
 * drive values of each step, and the normalisation N(ω) that turns the monitors' raw DFT sums
 * into the phasors of the source's definition. The simulation (simulation.ts) builds a source
 * with `createSource` (index.ts) and knows no source type beyond this interface; flux results
 * (flux-results.ts) read what each type measures against.
 */
import type { FluxSurface } from "../flux.js";
import type { GridPlan, YeeLayout } from "../grid.js";
import type { Medium } from "../medium-types.js";
import type { SampleBox } from "../monitors.js";
import type { StopCheck } from "../stop-flag.js";
import type { SimulationSpec } from "../types.js";
import type { InjectionConfig } from "./injection.js";
import type { PulseShape } from "./pulse.js";

/** What a source is built from: the request, the grid and its painted medium. */
export interface SourceContext {
  spec: SimulationSpec;
  plan: GridPlan;
  layout: YeeLayout;
  medium: Medium;
  /** Every recorded vacuum wavelength, the source's first (metres). */
  wavelengthsM: readonly number[];
  /** The same as angular frequencies (rad/s). */
  omegas: Float64Array;
  /** Threads the run may use; a mode source's wavelengths are solved on up to two. */
  threads: number;
  /** Throws when the run is cancelled: a mode source's solves check it at every step. */
  checkStop?: StopCheck;
  /** Called after each wavelength a mode source solves (set-up progress). */
  onModeSolved?: (done: number, total: number) => void;
}

/** A monitor as placed on the grid, for what a source must know of it. */
export interface PlacedMonitor {
  name: string;
  box: SampleBox;
  /** Flux monitors: the surface; null for field monitors. */
  flux: FluxSurface | null;
}

export interface Source {
  /** The request's `source_type`. */
  readonly kind: string;
  readonly pulse: PulseShape;
  /** Whether the main grid holds complex fields (Bloch phases across it). */
  readonly complex: boolean;
  /** Bloch phases k·L across the main grid's axes (zeros without). */
  readonly blochPhase: [number, number, number];
  /** A scale of the fields it drives, in V/m (the wasm backend flushes denormals below it). */
  readonly fieldScaleVPerM: number;
  /** Approximations the source brings to this run, for the run report. */
  readonly notes: string[];
  /** The injection terms for the main grid's layout, medium and dt/μ0. */
  injection(layout: YeeLayout, medium: Medium, hCoefficient: number): InjectionConfig;
  /**
   * Writes the drive values of steps n … n + count − 1 to `drive[DRIVE_VALUES_PER_STEP·l …]`
   * (the slots its injection terms read).
   */
  advance(n: number, count: number, drive: Float64Array): void;
  /**
   * Told where the monitors are and at which cadence they sample, before the first step; may
   * add notes (e.g. samples where the grid holds only a scattered field).
   */
  attachMonitors(monitors: readonly PlacedMonitor[], dftEvery: number): void;
  /** N(ω) per recorded frequency as interleaved (re, im): multiply raw monitor sums by it. */
  normalisation(): Float64Array;
}
