/**
 * The solver's public types: what it takes (a validated simulation with every default filled
 * in, SI units) and what it returns (monitor phasors, the grid, the materials used and a run
 * report). This module is the contract between `src/solver/` and the rest of the service; the
 * solver imports nothing else of ours.
 *
 * Coordinates: the simulation domain is centred on the origin, so along each axis it spans
 * [-size/2, +size/2] metres. `center` fields of structures and monitors are absolute
 * coordinates in that frame.
 */
import type { PoleModel } from "./dispersion/model.js";

import type { BackendChoice, BackendName } from "./backend-names.js";
import type { GpuAdapterReport } from "./adapter-report.js";
import type { StopFlag } from "./stop-flag.js";

export type { BackendChoice, BackendName } from "./backend-names.js";
export type Vec3 = [number, number, number];
export type Axis = "x" | "y" | "z";
export type Boundary = "pml" | "periodic" | "pec" | "pmc";
/**
 * Mirror symmetry of the fields about the plane through the origin normal to an axis
 * (`domain.symmetry`): `pec`, tangential E odd (zero on the plane, as on a perfect electric
 * conductor); `pmc`, tangential E even (tangential H zero); `none`. The solver steps only the
 * half of the domain at coordinates ≥ 0 along each such axis, with that wall on its low face.
 */
export type Symmetry = "none" | "pec" | "pmc";
export type FieldComponent = "Ex" | "Ey" | "Ez" | "Hx" | "Hy" | "Hz";
export const FIELD_COMPONENTS: readonly FieldComponent[] = ["Ex", "Ey", "Ez", "Hx", "Hy", "Hz"];

/**
 * A region of the domain where the grid is finer (grid.ts planGrid): along each axis, the
 * cells between `center − size/2` and `center + size/2` are at most `resolution` long, and
 * the steps grade back to `domain.resolution` outside it. The grid is a tensor product, so a
 * refinement along x applies to the whole slab of the domain between those x.
 */
export interface MeshOverrideSpec {
  center: Vec3;
  /** Extent in metres; zero along an axis refines around the plane at `center` there. */
  size: Vec3;
  /**
   * Largest step in metres inside the box: one for every axis, or one per axis (equal to
   * `domain.resolution` along an axis that is not to be refined).
   */
  resolution: number | Vec3;
}

/**
 * Largest ratio of neighbouring cells' steps where the grid grades (`max_step_ratio`): the one
 * definition of the request's default. The grid (grid.ts) grades with it when a spec leaves the
 * ratio out; the schema (src/schema/simulation.ts DEFAULTS) imports it for its description and
 * for applyDefaults, since the solver may not import the schema.
 */
export const DEFAULT_MAX_STEP_RATIO = 1.2;

export interface DomainSpec {
  /** Extent of the region of interest along x, y, z in metres (PML is added outside it). */
  size: Vec3;
  /** Grid step (cell edge) in metres: the largest step anywhere in the grid. */
  resolution: number;
  boundary_conditions: [Boundary, Boundary, Boundary];
  /** Absorber cells added outside `size` on each face whose boundary is `pml`. */
  pml_layers: number;
  /** Finer regions (absent or empty: a uniform grid). */
  mesh_overrides?: MeshOverrideSpec[];
  /** Largest ratio of neighbouring steps where the grid grades (default DEFAULT_MAX_STEP_RATIO). */
  max_step_ratio?: number;
  /** Mirror symmetry per axis (absent: none); see `Symmetry`. */
  symmetry?: [Symmetry, Symmetry, Symmetry];
}

export interface PlaneWaveSpec {
  source_type: "plane_wave";
  /** Vacuum wavelength of the carrier in metres. */
  wavelength: number;
  /** te: E perpendicular to the plane holding `direction` and z (s); tm: the other (p). */
  polarization: "te" | "tm";
  /** Propagation direction; not necessarily normalised, never zero. */
  direction: Vec3;
  /** Amplitude of E in V/m. */
  amplitude: number;
}

/**
 * A point dipole (sources/point-dipole.ts): a current element at `center`, in any material.
 * Electric (`Ex`, `Ey`, `Ez`: the axis of its current) with `amplitude` its current moment
 * I·ℓ in A·m, or magnetic (`Hx`, `Hy`, `Hz`) with `amplitude` its magnetic current moment in
 * V·m; at every recorded wavelength the fields are those of that time-harmonic moment.
 */
export interface PointDipoleSpec {
  source_type: "point_dipole";
  /** Vacuum wavelength of the carrier in metres. */
  wavelength: number;
  center: Vec3;
  polarization: FieldComponent;
  amplitude: number;
}

/**
 * A Gaussian beam (sources/gaussian-beam.ts) injected one way through a plane: `center` a
 * point on it, where the beam's axis crosses it; `size` its extent, zero along the axis it is
 * normal to (the dominant axis of `direction`); the focus at `waist_distance` from `center`
 * along `direction`; `amplitude` the peak |E| at the focus (V/m).
 */
export interface GaussianBeamSpec {
  source_type: "gaussian_beam";
  wavelength: number;
  center: Vec3;
  size: Vec3;
  direction: Vec3;
  polarization: "te" | "tm";
  waist_radius: number;
  waist_distance: number;
  amplitude: number;
}

/** A direction along an axis, as mode sources and ports name it. */
export type AxisDirection = "+x" | "-x" | "+y" | "-y" | "+z" | "-z";

/** Which modes of a plane (DESIGN §10's `mode_spec`), with its defaults. */
export interface ModeSpecSpec {
  num_modes: number;
  /** null: the largest refractive index on the plane. */
  target_neff: number | null;
  filter_pol: "te" | "tm" | null;
  /**
   * A bent guide (Tidy3D's bend_radius): the radius in metres, signed (the centre of curvature
   * towards −radial for a positive one), measured from the plane's centre; null or absent for
   * a straight guide.
   */
  bend_radius?: number | null;
  /** Which of the plane's two transverse axes the bend turns about (the other is radial). */
  bend_axis?: 0 | 1;
}

/** One mode of a plane injected one way (`source_type: "mode"`, sources/mode.ts). */
export interface ModeSourceSpec {
  source_type: "mode";
  wavelength: number;
  center: Vec3;
  /** The plane: zero along the axis of `direction`. */
  size: Vec3;
  direction: AxisDirection;
  mode_index: number;
  mode_spec: ModeSpecSpec;
}

/**
 * Every input port and mode of the request's `ports` run in turn (`source_type: "ports"`,
 * ports.ts): the job's result is the scattering matrix at `wavelengths`.
 */
export interface PortsSourceSpec {
  source_type: "ports";
  /** The carrier of every run's pulse (the middle of the band, as a rule). */
  wavelength: number;
  /** The S-matrix's wavelengths. */
  wavelengths: number[] | WavelengthRange;
  /** The ports whose modes are launched (the others only receive). */
  run_ports: string[];
  /**
   * Elements of the S-matrix known from the device's symmetry or reciprocity: each key
   * "out,in" (port@mode names, s[out][in]) is an element the runs compute, copied to each
   * "out,in" of its list (whose inputs are not run). Absent: none.
   */
  port_symmetries?: Record<string, string[]>;
}

/** A waveguide port: a plane, the way into the device, the modes it has. */
export interface PortSpec {
  name: string;
  center: Vec3;
  /** The plane: zero along the axis of `direction`. */
  size: Vec3;
  /** The way into the device. */
  direction: AxisDirection;
  mode_spec: ModeSpecSpec;
}

/** The request's source: one of the source types (sources/). */
export type SourceSpec =
  PlaneWaveSpec | PointDipoleSpec | GaussianBeamSpec | ModeSourceSpec | PortsSourceSpec;

export interface BoxSpec {
  type: "box";
  center: Vec3;
  size: Vec3;
  material: string;
}
export interface SphereSpec {
  type: "sphere";
  center: Vec3;
  radius: number;
  material: string;
}
export interface CylinderSpec {
  type: "cylinder";
  center: Vec3;
  radius: number;
  height: number;
  axis: Axis;
  material: string;
}
/**
 * A polygon extruded along z (polyslab.ts). `vertices` is the outline at the bottom, z_min, in
 * metres (either orientation; a repeated closing vertex is ignored); `holes` are outlines cut
 * out of it. `sidewall_angle_deg` is measured from vertical; positive shrinks the outline going
 * up (as in gdsfactory and Tidy3D). Defaults: no holes, angle 0.
 */
export interface PolySlabSpec {
  type: "polyslab";
  vertices: [number, number][];
  holes?: [number, number][][];
  z_min: number;
  z_max: number;
  sidewall_angle_deg?: number;
  material: string;
}
export type StructureSpec = BoxSpec | SphereSpec | CylinderSpec | PolySlabSpec;

/** `points` vacuum wavelengths equally spaced from `start` to `stop` (metres), both included. */
export interface WavelengthRange {
  start: number;
  stop: number;
  points: number;
}

interface MonitorBase {
  name: string;
  center: Vec3;
  /** A zero extent along an axis makes the monitor a plane (two zeros a line, three a point). */
  size: Vec3;
  /** Vacuum wavelengths (metres) to record, a list or a range; default the source's. */
  wavelengths?: number[] | WavelengthRange;
}

/** Frequency-domain phasors of field components at the cell centres inside a box. */
export interface FieldMonitorSpec extends MonitorBase {
  monitor_type: "field";
  components: FieldComponent[];
}

/**
 * Net Poynting flux through a plane (one zero extent) or out of the closed surface of a box
 * (no zero extent), at each wavelength (flux.ts).
 */
export interface FluxMonitorSpec extends MonitorBase {
  monitor_type: "flux";
}

/** `points` angles in degrees equally spaced from `start` to `stop`, both included. */
export interface AngleRange {
  start: number;
  stop: number;
  points: number;
}

/**
 * Near-to-far-field projection (far-field.ts, far-field-results.ts): the radiant intensity
 * over the directions (θ from +z, φ from +x about z, degrees) of what the closed surface of a
 * box holds, in the medium around it (a plane: of the half-space it faces). With a plane wave
 * it projects the scattered field; with a dipole the total field.
 */
export interface FarFieldMonitorSpec extends MonitorBase {
  monitor_type: "far_field";
  theta_deg: number[] | AngleRange;
  phi_deg: number[] | AngleRange;
}

/**
 * A plane's fields decomposed into its modes (`monitor_type: "mode"`, mode-results.ts): the
 * forward and backward amplitude of each mode of `mode_spec` at each wavelength.
 */
export interface ModeMonitorSpec extends MonitorBase {
  monitor_type: "mode";
  mode_spec: ModeSpecSpec;
  /**
   * Set on a port's own monitor (ports.ts, not in requests): the run fails when a mode of the
   * port does not guide, since S-parameters of such a mode mean nothing.
   */
  port?: string;
}

export type MonitorSpec =
  FieldMonitorSpec | FluxMonitorSpec | FarFieldMonitorSpec | ModeMonitorSpec;

export interface FdtdSettings {
  time_steps: number;
  /** S in dt = S·dx/(c·√3), 0 < S ≤ 1. */
  courant_factor: number;
  /** Relative L2 change of the monitors between checks that counts as converged; 0 = off. */
  convergence_threshold: number;
  check_every_n: number;
}

/** A simulation request after validation, with every default filled in. */
/** A material defined in the request: ε(ω) = ε∞ + iσ/(ωε0) + Σ poles, ω in rad/s. */
export interface UserMaterialSpec {
  /** ε∞ (default 1). */
  permittivity?: number;
  /** σ in S/m (default 0). */
  conductivity?: number;
  poles?: (
    | { type: "lorentz"; delta_eps: number; omega0: number; gamma: number }
    | { type: "drude"; omega_p: number; gamma: number }
  )[];
}

export interface SimulationSpec {
  solver: "fdtd";
  domain: DomainSpec;
  source: SourceSpec;
  structures: StructureSpec[];
  monitors: MonitorSpec[];
  /** Materials defined in the request, by name (optional: none). */
  materials?: Record<string, UserMaterialSpec>;
  /** Waveguide ports, for `source_type: "ports"` (optional: none). */
  ports?: PortSpec[];
  fdtd_settings: FdtdSettings;
}

/** One problem found by `checkSimulation`: `path` is a JSON pointer-like dotted path. */
export interface SpecProblem {
  path: string;
  message: string;
}

export interface RunEstimate {
  /** Cells of the whole grid, PML included, per axis. */
  grid: Vec3;
  /** Cells of the region of interest (without PML), per axis. */
  interiorGrid: Vec3;
  totalCells: number;
  /** Cells the structures' surfaces cross, about (surface.ts): they cost more per step. */
  surfaceCells: number;
  /** Cells of the CPML absorber: they cost more per step (the ψ beside the fields). */
  absorberCells: number;
  /** The set-up's mode solves (ports, mode sources and monitors): each plane's cells, and times. */
  modeSolves: { cells: number; count: number }[];
  timeSteps: number;
  /**
   * Time steps the run is expected to take: all of them without a convergence threshold,
   * else when a rule of thumb (estimate.ts expectedSteps) expects it to converge.
   */
  expectedSteps: number;
  dtSeconds: number;
  /** Complex samples all monitors will hold (points × components × wavelengths). */
  monitorSamples: number;
  /** Peak memory the run needs, in bytes. */
  memoryBytes: number;
  /** The backend the estimate is for (the one configuration chooses). */
  backend: BackendName;
  /**
   * Of that, what counts against the backend's own bound (the wasm backend's one
   * WebAssembly memory: fields, CPML ψ, tables; the reference backend's largest array).
   */
  backendBytes: number;
  /** That bound per run (4 GiB for both, wasm32 memory and V8's largest typed array). */
  backendLimitBytes: number;
  /** What the backend bytes count, for messages. */
  backendMemoryWhat: string;
  /** Set when the monitors' sums, not the grid, are what exceeds the bound. */
  backendMemoryOfMonitors?: true;
  /** The largest N³ grid (12 PML layers included) the backend holds, for messages. */
  backendLargestCube: number;
  /** Size of the result file's monitor data in bytes. */
  resultBytes: number;
}

/** Where a run's set-up went, in seconds. */
export interface SetupTimes {
  /** Grid plan, materials, the grid model (CPML profiles), source line and monitors. */
  gridSeconds: number;
  /** Painting the structures into the medium (sub-cell smoothing). */
  paintingSeconds: number;
  /** The backend's fields and tables: allocation and copies. */
  fieldsSeconds: number;
  /** Generating and compiling the kernel. */
  compileSeconds: number;
  /** Starting the kernel threads. */
  threadStartSeconds: number;
}

/** Where a run's time stepping went, in seconds. */
export interface SteppingTimes {
  /** The kernel's sweeps (on every thread): updates, CPML, boundaries, TFSF. */
  kernelSeconds: number;
  /** The plane wave's auxiliary line and its incident values. */
  sourceSeconds: number;
  /** The monitors' running DFT. */
  monitorSeconds: number;
  /** Energy sums, divergence and convergence checks. */
  checksSeconds: number;
  /** Yields to the event loop (cancel, progress) and progress reports. */
  yieldSeconds: number;
  /** The loop itself and anything not counted above. */
  otherSeconds: number;
  /** GPU backends: what one time step dispatches and moves, and (profiled runs) where it went. */
  gpu?: GpuSteppingReport;
}

/** A GPU backend's time step: its dispatches, its bytes, and the GPU's time per pass. */
export interface GpuSteppingReport {
  /** Compute dispatches one time step encodes (the DFT's, on the steps it samples, included). */
  dispatchesPerStep: number;
  /** DRAM bytes of one cell-update averaged over the grid (fields, indices, CPML ψ). */
  bytesPerCellUpdate: number;
  /**
   * Profiled runs (InternalRunOptions.profilePasses) only: the GPU's seconds per kind of pass
   * ("H bulk", "E bulk", "sources", "ghosts", "ADE", "DFT", …) over the whole run, from
   * timestamp queries where the adapter has them.
   */
  passSeconds?: Record<string, number>;
}

export interface SolverProgress {
  /** "setup" while the run is set up (painting, a mode source's plane), then "stepping". */
  phase: "setup" | "stepping";
  /**
   * Fraction of the set-up done, 1 once stepping: the painting's, or, where a mode source's
   * plane is solved after it, half the painting's and half the plane's wavelengths solved.
   */
  setupFraction: number;
  step: number;
  totalSteps: number;
  /** step / totalSteps, in [0, 1]. */
  fraction: number;
  /** Last relative change measured by the convergence check, or null before the first. */
  lastRelativeChange: number | null;
  /** Cell-updates per second so far, in millions. */
  mcellsPerSecond: number;
}

export interface RunOptions {
  onProgress?: (progress: SolverProgress) => void;
  /** Cancels the run; the promise then rejects with an Error whose name is "AbortError". */
  signal?: AbortSignal;
  /**
   * Cancels the run as `signal` does, and is seen also where the run computes for seconds
   * without returning to the event loop (a port plane's mode solves): stop-flag.ts.
   */
  stopFlag?: StopFlag;
  /** Threads the backend may step with (wasm); defaults to the available cores. */
  threads?: number;
  /**
   * Which backend steps the fields (backend.ts): "wasm" (WebAssembly SIMD on several
   * threads), "reference" (plain TypeScript, one thread), or "auto" (the default: wasm
   * where the runtime supports it).
   */
  backend?: BackendChoice;
}

export interface MonitorResult {
  name: string;
  center: Vec3;
  size: Vec3;
  wavelengthsM: number[];
  frequenciesHz: number[];
  /** Sample coordinates in metres along each axis (every component is reported at these). */
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  /** [wavelengths, nx, ny, nz]. */
  shape: [number, number, number, number];
  /**
   * Per recorded component, complex phasors normalised by the source spectrum, interleaved
   * (re, im) float32 in C order over `shape` — exactly the HDF5 compound {r, i} layout.
   */
  data: Partial<Record<FieldComponent, Float32Array>>;
}

/** What a flux monitor's `flux` measures (flux.ts, docs/solver.md "Flux monitors"). */
export type FluxQuantity = "transmittance" | "reflectance" | "flux" | "box" | "power";

export interface FluxMonitorResult {
  name: string;
  center: Vec3;
  size: Vec3;
  wavelengthsM: number[];
  frequenciesHz: number[];
  /**
   * transmittance: total power through a plane normal to the propagation axis, along the
   * propagation direction; reflectance: power flowing back, of the field upstream of the
   * source plane or, in front of every structure, of the total minus the incident field;
   * flux: total power along +axis through a plane normal to another axis; box: net power
   * out of a closed box; power (a point dipole): the power out of a box or along +axis through
   * a plane over the power the same dipole radiates in vacuum (the Purcell factor for a box
   * around it).
   */
  quantity: FluxQuantity;
  /** Unit vector of positive flux for a plane; null for a box (outward). */
  normal: Vec3 | null;
  /** Area of the plane, or of the box's surface, in m² (whole cells it covers). */
  areaM2: number;
  /**
   * Per wavelength: a plane's power normalised to the incident power through a plane of the
   * same area normal to the propagation axis (dimensionless); a box's net outward power of
   * the total field over the incident intensity (m², = −absorption cross-section).
   */
  flux: Float64Array;
  /** Box only: cross-sections in m² per wavelength (scattered = total − incident field). */
  crossSections: {
    scattering: Float64Array;
    absorption: Float64Array;
    extinction: Float64Array;
  } | null;
  /** Incident intensity |S| in W/m² per wavelength, for the source's amplitude (plane wave). */
  incidentIntensityWPerM2: Float64Array | null;
  /** The power in watts per wavelength (point dipole), null for a plane wave. */
  powerW: Float64Array | null;
  /** Box coordinates of the cell centres the surface spans, per axis (m). */
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
}

/** A material a run used, as the run report and the result file describe it. */
/** A far-field monitor's pattern (far-field-results.ts). */
export interface FarFieldMonitorResult {
  name: string;
  center: Vec3;
  size: Vec3;
  wavelengthsM: number[];
  frequenciesHz: number[];
  thetaDeg: number[];
  phiDeg: number[];
  /** Re ε of the medium it projects into, at each wavelength (its dispersion included). */
  backgroundEps: number[];
  /**
   * The axis a 2-D cross-section is thin along (0 x, 1 y, 2 z), whose pattern is a line's
   * (far-field-cross-section.ts), or null for a 3-D pattern.
   */
  crossSectionAxis: number | null;
  /**
   * Per wavelength, θ, φ (in that order, φ fastest): W/sr, or in a 2-D cross-section W/rad
   * over one period of the thin axis.
   */
  radiantIntensity: Float64Array;
  /**
   * E_θ and E_φ without e^{ikr}, interleaved (re, im) over [λ][θ][φ]: r·E at r = 1 m in V, or
   * in a 2-D cross-section √ρ·E at ρ = 1 m in V/√m.
   */
  eTheta: Float64Array;
  ePhi: Float64Array;
}

/** A mode monitor's decomposition (mode-results.ts), per wavelength and mode. */
export interface ModeMonitorResult {
  name: string;
  center: Vec3;
  size: Vec3;
  wavelengthsM: number[];
  frequenciesHz: number[];
  /** The plane's normal axis (0 x, 1 y, 2 z): "+" is along it. */
  normal: number;
  modes: number;
  /** n_eff and k_eff of each mode, [λ][mode]. */
  nEff: Float64Array;
  kEff: Float64Array;
  /**
   * The amplitude of each mode along +normal and −normal, (re, im) over [λ][mode], in √W of
   * the source's normalised fields: with a mode source, |a|² is the power in that mode over
   * the 1 W the source injects.
   */
  forward: Float64Array;
  backward: Float64Array;
}

/** The scattering matrix of a ports run (ports.ts). */
export interface SMatrixResult {
  /** Port@mode names, e.g. "o1@0": the rows (out) and columns (in) of `s`. */
  ports: string[];
  /** The inputs that were run (the columns of `s` filled); the others are NaN. */
  inputs: string[];
  wavelengthsM: number[];
  frequenciesHz: number[];
  /** n_eff of each port@mode at each wavelength, [port@mode][λ]. */
  nEff: Float64Array;
  /**
   * S[out][in][λ] interleaved (re, im), out first: s[2·((o·P + i)·W + w)]; |S|² is the power
   * fraction from port@mode `in` into `out`, phases referred to each port's plane.
   */
  s: Float64Array;
}

export type MaterialUsed = OpticalMaterialUsed | PerfectConductorUsed;

interface MaterialUsedBase {
  name: string;
  model: string;
  reference: string;
  validRangeM: [number, number];
}

/** A material with a permittivity: a dielectric, a metal, or one defined in the request. */
export interface OpticalMaterialUsed extends MaterialUsedBase {
  /** Relative permittivity at the source wavelength, real and imaginary parts. */
  permittivity: [number, number];
  /**
   * How the time-domain update represents it: `constant` (the permittivity at the source
   * wavelength, absorption as a conductivity) or `poles` (its multi-pole model, so every
   * wavelength sees its own ε; docs/materials.md).
   */
  timeDomain: "constant" | "poles";
  /** The multi-pole model the update used (timeDomain `poles`), else null. */
  poleModel: PoleModel | null;
  /** Conductivity in S/m used by the time-domain update to model absorption. */
  conductivitySPerM: number;
}

/**
 * The perfect electric conductor (PEC): no permittivity or conductivity to report; the update
 * holds E at zero in its cells (medium.ts).
 */
export interface PerfectConductorUsed extends MaterialUsedBase {
  timeDomain: "perfect_conductor";
}

export interface RunReport {
  stepsRun: number;
  timeStepsLimit: number;
  converged: boolean;
  convergedAtStep: number | null;
  lastRelativeChange: number | null;
  /** Cells of the whole grid, PML included. */
  cells: number;
  grid: Vec3;
  dtSeconds: number;
  /** domain.resolution: the step of a uniform grid, the longest of one with mesh overrides. */
  gridStepM: number;
  /** The shortest cell of the grid (metres): what the time step follows. */
  minGridStepM: number;
  wallSeconds: number;
  mcellsPerSecond: number;
  /** The backend that stepped the fields: "wasm", "webgpu" or "reference". */
  kernel: BackendName;
  /** The GPU adapter the `webgpu` backend ran on; null for the CPU backends. */
  adapter: GpuAdapterReport | null;
  threads: number;
  /** Seconds of the run before the first time step (grid, painting, kernels, threads). */
  setupSeconds: number;
  /** Seconds of time stepping (what mcellsPerSecond divides by). */
  steppingSeconds: number;
  /** setupSeconds by part (they add up to it, within the clock's resolution). */
  setup: SetupTimes;
  /** steppingSeconds by part; `otherSeconds` is what the others do not account for. */
  stepping: SteppingTimes;
  /** The machine the speed depends on: logical cores, CPU model, memory. */
  machine: { cores: number; cpu: string; memoryBytes: number };
  /** Time steps the backend advanced per sweep (temporal blocking); 1 for the reference. */
  stepsPerSweep: number;
  /** Approximations that apply to this run (e.g. plane wave with transverse PML). */
  notes: string[];
}

export interface SolverResult {
  grid: { x: Float64Array; y: Float64Array; z: Float64Array; dtSeconds: number };
  /** Field monitors. */
  monitors: MonitorResult[];
  /** Flux monitors. */
  fluxMonitors: FluxMonitorResult[];
  /** Far-field monitors. */
  farFieldMonitors: FarFieldMonitorResult[];
  /** Mode monitors (absent in results made before they existed, e.g. test fixtures). */
  modeMonitors?: ModeMonitorResult[];
  /** The scattering matrix of a ports run (source_type "ports"). */
  sMatrix?: SMatrixResult;
  /**
   * The permittivity the run stepped on each plane field monitor's plane (absent in results made
   * before it existed).
   */
  permittivity?: PermittivityPlane[];
  materials: MaterialUsed[];
  report: RunReport;
}

/**
 * ε at the source wavelength on the node plane nearest a plane field monitor, over the whole
 * domain (absorber included), as the set-up preview shows that plane (plane-permittivity.ts).
 */
export interface PermittivityPlane {
  /** The monitor's name. */
  name: string;
  /** 0 x, 1 y, 2 z. */
  normal: number;
  /** The in-plane axes (first, second). */
  axes: [number, number];
  /** The node plane's coordinate along the normal (metres). */
  positionM: number;
  wavelengthM: number;
  /** The samples' coordinates along the first and second axis (metres). */
  coordsM: [Float64Array, Float64Array];
  /** Sample (i, j) at i·n_second + j. */
  epsRe: Float64Array;
  epsIm: Float64Array;
  /** How many of each sample's three E components are a perfect conductor's. */
  conductor: Uint8Array;
}

/** Thrown when the fields stop being finite; the message says what to change. */
export class SolverDivergenceError extends Error {
  override name = "SolverDivergenceError";
}

/**
 * Thrown when the run finds its request cannot give what it asks, in terms the user acts on
 * (a port whose plane holds no guided mode): the message is for the user, like a 422's.
 */
export class RunRequestError extends Error {
  override name = "RunRequestError";
}
