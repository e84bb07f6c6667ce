/**
 * The WGSL compute shaders of the `webgpu` backend, generated per run with the grid's sizes,
 * strides, update ranges and table offsets written in as constants (so the bulk updates have
 * no uniform loads and no range arithmetic beyond compares against literals).
 *
 * Every shader steps one real field set; Bloch runs dispatch the linear passes (bulk with its
 * CPML corrections) once per set, and the passes that mix the sets (Bloch ghost copies, source terms with complex
 * weights, the monitors' DFT) bind both. The equations are those of the reference backend:
 * kernel.ts (bulk Yee update, κ folded into the inverse steps), cpml.ts (ψ recursion), sources/injection.ts
 * (plane-wave corrections), boundaries.ts (ghost planes), monitors.ts (running DFT) and
 * yee.ts's fieldEnergy, in float32 throughout.
 *
 * Storage buffers per shader stay at or below 8 (the core WebGPU default): the fused E update
 * binds six field components, the packed material indices (material-index.ts: 8 or 16 bits) and
 * the aux buffer (the tables and the absorber's ψ, absorber.ts); 10 where a grid's indices take
 * a buffer per component (material-index.ts).
 *
 * Bytes one cell-update moves (the figure docs/benchmarks.md works from), with each
 * neighbour value read once from DRAM and re-read from cache: H pass reads Ex Ey Ez and
 * Hx Hy Hz and writes Hx Hy Hz (36 B); E pass reads Hx Hy Hz, Ex Ey Ez and three 16-bit
 * indices and writes Ex Ey Ez (42 B; 39 B with 8-bit indices); 78 B in all (75 B). The
 * coefficient tables (per axis and per material) are a few KiB and stay in cache; the absorber
 * adds ψ (absorber.ts). See BYTES_PER_CELL_UPDATE. With float16 storage (field-storage.ts) the
 * fields take half (39 B with 8-bit indices), and the bulk passes are packed-bulk.ts's; the
 * passes here that read or write single values find them through field-storage.ts.
 */
import type { YeeLayout } from "../grid.js";
import {
  absorberCorrections,
  type AbsorberPlan,
  type CorrectionTerm,
  type PsiStore,
} from "./absorber.js";
import { indexBindingsWgsl, materialOfWgsl, type IndexBits } from "./material-index.js";
import type { TableOffsets } from "./tables.js";
import { DRIVE_UNIFORM, injectionUpdates, type GpuInjection } from "./injection-terms.js";
import {
  fieldAccessWgsl,
  fieldWgslType,
  loadAtWgsl,
  storeAtWgsl,
  type FieldStorage,
  type StorageScales,
} from "./field-storage.js";

/**
 * How the bulk passes cover the grid: workgroups of x threads along z (the contiguous axis) by
 * y along y, one thread per node.
 */
export interface BulkShape {
  x: number;
  y: number;
}

/**
 * The bulk passes' shape unless a benchmark asks for another (StepperOptions.bulkShape): on a
 * GPU 128 × 1, on a software adapter 64 × 1 (the same WGSL but for the workgroup size). On an
 * H200 (bench:solver, profiled) 128 × 1 moved 3.1 TB/s at 500³ against 2.9 for 64 × 1 and 2.7
 * for 32 × 4, and was as fast at 128³; threads walking 4 or 16 nodes along x were slower
 * everywhere (and that loop cost llvmpipe half again). On llvmpipe, which runs a workgroup's
 * threads as SIMD lanes on a CPU core, the agreement tests' small grids ran 1.7 times as long
 * with 128-wide groups, most of their lanes past the grid. Compatibility mode allows 128.
 */
export function defaultBulkShape(software: boolean): BulkShape {
  return { x: software ? 64 : 128, y: 1 };
}

/** Workgroup counts of a bulk pass over nodes 0…n along each axis. */
export function bulkGroups(layout: YeeLayout, shape: BulkShape): [number, number, number] {
  const [nx, ny, nz] = layout.n;
  return [Math.ceil((nz + 1) / shape.x), Math.ceil((ny + 1) / shape.y), nx + 1];
}
/** Threads per workgroup of the 1-D passes (ghosts, sources, DFT, energy): WebGPU compatibility mode allows 128. */
export const WORKGROUP_LINEAR = 128;
/** Stored values each thread of the energy reduction sums before the workgroup reduction. */
export const ENERGY_VALUES_PER_THREAD = 16;

/** DRAM bytes of one cell-update of the bulk passes with 16-bit material indices (module comment). */
export const BYTES_PER_CELL_UPDATE = 78;

/**
 * The same with `bits`-wide indices and fields of `valueBytes` a value: 18 field values (72 B
 * in float32, 36 B in float16) and 3 indices.
 */
export function bulkBytesPerCellUpdate(bits: IndexBits, valueBytes: 2 | 4 = 4): number {
  return 18 * valueBytes + (3 * bits) / 8;
}

/** How the passes that read or write single field values find them (field-storage.ts). */
export interface FieldAccess {
  storage: FieldStorage;
  /** Values in a padded x-plane (the layout's x stride). */
  sx: number;
}

/** What the generated shaders need to know about a run. */
export interface ShaderGrid {
  layout: YeeLayout;
  tables: TableOffsets;
  /** The CPML slabs the bulk passes step (absorber.ts), their ψ behind the tables in aux. */
  absorber: AbsorberPlan;
  /** dt/μ0 (H's update coefficient), for the absorber's H corrections. */
  hCoefficient: number;
  bulk: BulkShape;
  /** The source's injection terms, added in the bulk passes (injection-terms.ts). */
  injection: GpuInjection | null;
  /** Bits per material index and 32-bit words per E component (material-index.ts). */
  indexBits: IndexBits;
  indexWords: number;
  /** Whether the indices are three bindings, one per component (material-index.ts). */
  indexSplit: boolean;
  /** How the fields are stored, and at what scales (field-storage.ts). */
  storage: FieldStorage;
  scales: StorageScales;
}

export const i32 = (v: number) => `${Math.trunc(v)}i`;
export const u32 = (v: number) => `${Math.trunc(v)}u`;

/** Common constants: sizes, strides, the index helper. */
export function prelude(g: ShaderGrid): string {
  const { layout } = g;
  const [sx, sy] = layout.strides;
  return `
const NX: i32 = ${i32(layout.n[0])};
const NY: i32 = ${i32(layout.n[1])};
const NZ: i32 = ${i32(layout.n[2])};
const SX: u32 = ${u32(sx)};
const SY: u32 = ${u32(sy)};
const IDX_WORDS: u32 = ${u32(g.indexWords)};
const LAST: u32 = ${u32(layout.paddedCells - 1)};
fn at(i: i32, j: i32, k: i32) -> u32 {
  return u32(i + 1) * SX + u32(j + 1) * SY + u32(k + 1);
}
`;
}

/** Whether (i, j, k) lies in component comp's update range (grid.ts YeeLayout.lo/hi). */
function inRange(layout: YeeLayout, comp: number): string {
  const parts: string[] = [];
  const names = ["i", "j", "k"];
  for (let a = 0; a < 3; a++) {
    parts.push(`${names[a]} >= ${i32(layout.lo[comp * 3 + a])}`);
    parts.push(`${names[a]} <= ${i32(layout.hi[comp * 3 + a])}`);
  }
  return parts.join(" && ");
}

export const AXES = ["x", "y", "z"] as const;
/** Index strides along x, y and z in the padded grid. */
const STRIDES = ["SX", "SY", "1u"] as const;

/**
 * One fused bulk update of the three components of H or of E, from one description: component
 * c = (c, a1, a2) cyclic is updated by the curl ∂_{a1}F_{a2} − ∂_{a2}F_{a1} of the other field
 * F, forward differences of E at half positions for H, backward differences of H at nodes for
 * E, each times its axis's inverse step with κ folded in (tables in `aux`), then, in the
 * absorber, by its CPML corrections (absorber.ts). `aux` holds the tables and the ψ arrays.
 */
function curlUpdateShader(g: ShaderGrid, kind: "H" | "E"): string {
  const { x, y } = g.bulk;
  return `${prelude(g)}
${bulkBindings(kind, "f32", g.indexSplit)}
${kind === "H" ? "" : materialOfWgsl(g.indexBits, g.indexSplit)}
@compute @workgroup_size(${x}, ${y}, 1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let k = i32(gid.x);
  let j = i32(gid.y);
  let i = i32(gid.z);
  if (k > NZ || j > NY || i > NX) { return; }
  let p = at(i, j, k);
${stepLines(g, kind).join("\n")}
${bulkLoads(g, kind)}
${[0, 1, 2].map((c) => componentUpdate(g, kind, c, (f) => `${f}[p] = v;`)).join("\n")}
}
`;
}

/**
 * Every value a bulk thread's three updates read, loaded before any of them, so that the loads
 * are in flight together (inside each update's range test, each test's loads waited for the
 * one before: a memory latency per component). The other field at p (`exp0`) and at each
 * neighbour a difference needs (`ey_z`: Ey one node along z; forward for H, backward for E),
 * the own field at p (`hxp`) and, for E, the material's ca and cb per component. H's forward
 * neighbours of the last nodes would lie past the padded arrays: their index is clamped (the
 * values there are never used).
 */
export function bulkLoads(g: ShaderGrid, kind: "H" | "E"): string {
  const updatesH = kind === "H";
  const [own, other] = updatesH ? ["h", "e"] : ["e", "h"];
  const load = (field: string, at: string) => `${field}[${at}]`;
  const lines = AXES.map((a) => `  let ${other}${a}p0 = ${load(other + a, "p")};`);
  for (let comp = 0; comp < 3; comp++) {
    for (let axis = 0; axis < 3; axis++) {
      if (axis === comp) continue;
      const at = updatesH ? `min(p + ${STRIDES[axis]}, LAST)` : `p - ${STRIDES[axis]}`;
      const f = other + AXES[comp];
      lines.push(`  let ${f}_${AXES[axis]} = ${load(f, at)};`);
    }
  }
  lines.push(...AXES.map((a) => `  let ${own}${a}p = ${load(own + a, "p")};`));
  if (!updatesH) lines.push(...materialLines(g));
  return lines.join("\n");
}

/**
 * A bulk pass's bindings: the six field components (`element`: f32, or u32 for float16 pairs,
 * packed-bulk.ts), the updated field's writable, then aux, E's material indices and the drive.
 */
export function bulkBindings(kind: "H" | "E", element: "f32" | "u32", indexSplit: boolean): string {
  const own = kind === "H" ? "h" : "e";
  const fields = ["e", "h"].flatMap((f) => AXES.map((a) => `${f}${a}`));
  const bindings = fields.map(
    (name, b) =>
      `@group(0) @binding(${b}) var<storage, ${name[0] === own ? "read_write" : "read"}> ${name}: array<${element}>;`,
  );
  bindings.push(`@group(0) @binding(6) var<storage, read_write> aux: array<f32>;`);
  if (kind === "E") bindings.push(indexBindingsWgsl(7, indexSplit));
  bindings.push(DRIVE_UNIFORM);
  return bindings.join("\n");
}

/** WGSL: a node's inverse steps per axis (`cx`… for H, `ix`… for E), κ folded in, from aux. */
export function stepLines(g: ShaderGrid, kind: "H" | "E"): string[] {
  const coef = kind === "H" ? "c" : "i";
  const steps = kind === "H" ? g.tables.chHalf : g.tables.invNode;
  const index = ["i", "j", "k"];
  return AXES.map((a, d) => `  let ${coef}${a} = aux[${u32(steps[d])} + u32(${index[d]} + 1)];`);
}

/** WGSL: the E pass's material per component at padded cell p, and its ca and cb. */
export function materialLines(g: ShaderGrid): string[] {
  return [0, 1, 2].flatMap((c) => [
    `  let m${c} = materialOf(${c}u, p);`,
    `  let ca${c} = aux[${u32(g.tables.ca)} + m${c}];`,
    `  let cb${c} = aux[${u32(g.tables.cb)} + m${c}];`,
  ]);
}

/**
 * The update of component c of the bulk pass `kind` (curlUpdateShader, packed-bulk.ts): its two
 * raw differences, the curl, the new value `v` and the absorber's corrections to it, and then
 * `store(field)`, the statement that keeps v. The values it reads have bulkLoads' names, and
 * i, j, k are the node's; `psiStore` keeps the absorber's ψ (absorberCorrections).
 */
export function componentUpdate(
  g: ShaderGrid,
  kind: "H" | "E",
  c: number,
  store: (field: string) => string,
  psiStore?: PsiStore,
): string {
  const updatesH = kind === "H";
  const [own, other] = updatesH ? ["h", "e"] : ["e", "h"];
  const coef = updatesH ? "c" : "i";
  const a1 = (c + 1) % 3;
  const a2 = (c + 2) % 3;
  // The raw difference along `axis` of the other field's component `comp` (bulkLoads' names).
  const diff = (comp: number, axis: number) => {
    const f = `${other}${AXES[comp]}`;
    const next = `${f}_${AXES[axis]}`;
    return updatesH ? `(${next} - ${f}p0)` : `(${f}p0 - ${next})`;
  };
  const terms: CorrectionTerm[] = [
    { axis: a1, diff: "d1", sign: 1 },
    { axis: a2, diff: "d2", sign: -1 },
  ];
  const scale = updatesH ? `${-Math.fround(g.hCoefficient)}` : `cb${c}`;
  const corrections = absorberCorrections(g.absorber, g.tables, kind, c, terms, scale, psiStore);
  const f = `${own}${AXES[c]}`;
  const curl = `(d1 * ${coef}${AXES[a1]} - d2 * ${coef}${AXES[a2]})`;
  const value = updatesH ? `${f}p - ${curl}` : `ca${c} * ${f}p + cb${c} * ${curl}`;
  return `  if (${inRange(g.layout, updatesH ? 3 + c : c)}) {
    let d1 = ${diff(a2, a1)};
    let d2 = ${diff(a1, a2)};
    var v = ${value};
${corrections}
${injectionUpdates(g.injection, updatesH ? 3 + c : c)}
    ${store(f)}
  }`;
}

/**
 * The bulk H update of all three components (kernel.ts updateH), one thread per (i, j, k) of
 * 0…n along each axis: H −= (dt/μ0)·(∇×E) with κ folded into the per-axis inverse steps.
 */
export function updateHShader(g: ShaderGrid): string {
  return curlUpdateShader(g, "H");
}

/**
 * The bulk E update of all three components (kernel.ts updateE): E ← ca·E + cb·(∇×H), ca and
 * cb from the per-material table by each component's 16-bit material index.
 */
export function updateEShader(g: ShaderGrid): string {
  return curlUpdateShader(g, "E");
}

function structOf(name: string, fields: readonly string[], floats: ReadonlySet<string>): string {
  return `struct ${name} {\n${fields.map((f) => `  ${f}: ${floats.has(f) ? "f32" : "i32"},`).join("\n")}\n}`;
}

/** Uniform parameters of a ghost-plane copy (boundaries.ts GhostPlanes.copy, two strides). */
export const GHOST_PARAMS = [
  "src",
  "dst",
  "strideA",
  "countA",
  "strideB",
  "countB",
  "cosT",
  "sinT",
] as const;
export const GHOST_FLOAT_PARAMS: ReadonlySet<string> = new Set(["cosT", "sinT"]);

/**
 * A ghost copy F[dst + a·sA + b·sB] ← F[src + a·sA + b·sB]·e^{iθ}, both sets for Bloch runs
 * (`complex`), where θ is 0 (periodic), π (PMC mirror) or the Bloch phase.
 */
export function ghostShader(complex: boolean, access: FieldAccess): string {
  // Stored values in, stored values out: H's storage scale (field-storage.ts) cancels.
  const { storage } = access;
  const body = complex
    ? `let xr = ${loadAtWgsl(storage, "fr", "s")};
  let xi = ${loadAtWgsl(storage, "fi", "s")};
  let yr = xr * P.cosT - xi * P.sinT;
  let yi = xr * P.sinT + xi * P.cosT;
  ${storeAtWgsl(storage, "fr", "d", "yr")}
  ${storeAtWgsl(storage, "fi", "d", "yi")}`
    : `let y = P.cosT * ${loadAtWgsl(storage, "fr", "s")};
  ${storeAtWgsl(storage, "fr", "d", "y")}`;
  const T = fieldWgslType(storage);
  return `${structOf("GhostParams", GHOST_PARAMS, GHOST_FLOAT_PARAMS)}
${fieldAccessWgsl(storage, access.sx)}
@group(0) @binding(0) var<storage, read_write> fr: array<${T}>;
${complex ? `@group(0) @binding(1) var<storage, read_write> fi: array<${T}>;` : ""}
@group(0) @binding(2) var<uniform> P: GhostParams;

@compute @workgroup_size(${WORKGROUP_LINEAR}, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let t = gid.x + gid.y * nwg.x * ${u32(WORKGROUP_LINEAR)};
  let nb = u32(P.countB);
  if (t >= u32(P.countA) * nb) { return; }
  let o = (t / nb) * u32(P.strideA) + (t % nb) * u32(P.strideB);
  let s = u32(P.src) + o;
  let d = u32(P.dst) + o;
  ${body}
}
`;
}

/** Where a step's values sit in the step table (dynamic uniform offset per step, engine.ts). */
const STEP_STRUCT = `struct StepSlot {
  trig: u32,
  pad0: u32,
  pad1: u32,
  pad2: u32,
}
@group(1) @binding(0) var<uniform> S: StepSlot;
@group(1) @binding(1) var<storage, read> steps: array<f32>;`;

/** Uniform parameters of one monitor stream's DFT pass (monitors.ts DftRecorder.record). */
export const DFT_PARAMS = [
  "points",
  "wavelengths",
  "offsets",
  "base",
  "o0",
  "o1",
  "o2",
  "o3",
  "sums",
  "trig",
  "weight",
  "pad0",
] as const;
export const DFT_FLOAT_PARAMS: ReadonlySet<string> = new Set(["weight"]);

/**
 * One stream's running DFT sample: per point, the mean of the stored values at base + offsets
 * (the Yee samples around a cell centre), times e^{iωt}·weight per wavelength (cos and sin
 * from the step table, computed in float64 on the CPU), added with Kahan compensation so that
 * tens of thousands of float32 additions keep float32 accuracy: `sums` holds per stream the
 * running sums (2·W·P values) followed by their compensations. One thread per point and
 * wavelength (the dispatch's z): a loop over the wavelengths in one thread waited for each
 * wavelength's sums in turn (stores to `sums` keep the next loads behind them), 12 memory
 * latencies a sample for a 12-wavelength flux box: 15 µs a dispatch on an H200, 364 µs a step
 * for the gold sphere's box of 24 streams, twice its bulk passes. The stored values are read
 * as they are: `weight` carries H's storage scale (field-storage.ts).
 */
export function dftShader(complex: boolean, access: FieldAccess): string {
  const { storage } = access;
  const T = fieldWgslType(storage);
  const f = (name: string, at: string) => loadAtWgsl(storage, name, `b + u32(P.${at})`);
  const sum = (name: string) => `v = ${f(name, "o0")};
    if (n > 1) { v = v + ${f(name, "o1")}; }
    if (n > 2) { v = v + ${f(name, "o2")} + ${f(name, "o3")}; }`;
  return `${structOf("DftParams", DFT_PARAMS, DFT_FLOAT_PARAMS)}
${STEP_STRUCT}
${fieldAccessWgsl(storage, access.sx)}
@group(0) @binding(0) var<storage, read> fr: array<${T}>;
${complex ? `@group(0) @binding(1) var<storage, read> fi: array<${T}>;` : ""}
@group(0) @binding(2) var<storage, read> base: array<u32>;
@group(0) @binding(3) var<storage, read_write> sums: array<f32>;
@group(0) @binding(4) var<uniform> P: DftParams;

fn sampleOf(b: u32, im: bool) -> f32 {
  var v = 0.0;
  let n = P.offsets;
  ${
    complex
      ? `if (im) {
    ${sum("fi")}
    return v * P.weight;
  }`
      : ""
  }
  ${sum("fr")}
  return v * P.weight;
}

fn kahanAdd(at: u32, comp: u32, x: f32) {
  let y = x - sums[comp];
  let s = sums[at];
  let t = s + y;
  sums[comp] = (t - s) - y;
  sums[at] = t;
}

@compute @workgroup_size(${WORKGROUP_LINEAR}, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let q = gid.x + gid.y * nwg.x * ${u32(WORKGROUP_LINEAR)};
  let np = u32(P.points);
  if (q >= np) { return; }
  let w = gid.z;
  let b = base[u32(P.base) + q];
  let fre = sampleOf(b, false);
  let fim = ${complex ? "sampleOf(b, true)" : "0.0"};
  let total = 2u * u32(P.wavelengths) * np;
  let cw = steps[S.trig + u32(P.trig) + 2u * w];
  let sw = steps[S.trig + u32(P.trig) + 2u * w + 1u];
  let o = u32(P.sums) + 2u * (w * np + q);
  kahanAdd(o, o + total, fre * cw - fim * sw);
  kahanAdd(o + 1u, o + 1u + total, fre * sw + fim * cw);
}
`;
}

/** Uniform parameters of one component's ADE pass (dispersion/ade.ts AdeState.updatePlane). */
export const ADE_PARAMS = [
  "count",
  "cells",
  "poleStart",
  "correction",
  "cP",
  "cJ",
  "cE",
  "pad0",
] as const;

/**
 * The dispersive cells' pass of one E component on one field set (dispersion/ade.ts, whose
 * module comment derives it): per cell, E^{n+1} −= ε0·cb/Δt·Σh^n, then every pole steps
 * J^{n+1} = cP·P^n + cJ·J^n + cE·(E^{n+1} + 2E^n + E^{n−1}), P^{n+1} = P^n + J^{n+1}, and the
 * cell keeps Σh^{n+1}, E^{n+1} and E^n. `cells` holds per cell (padded offset, entry, first
 * pole slot) after the entries' poleStart; `hist` holds h, E^n, E^{n−1} per cell (float32
 * whatever the fields' storage).
 */
export function adeShader(access: FieldAccess): string {
  const { storage } = access;
  return `${structOf("AdeParams", ADE_PARAMS, new Set())}
${fieldAccessWgsl(storage, access.sx)}
@group(0) @binding(0) var<storage, read_write> f: array<${fieldWgslType(storage)}>;
@group(0) @binding(1) var<storage, read> cells: array<u32>;
@group(0) @binding(2) var<storage, read> tab: array<f32>;
@group(0) @binding(3) var<storage, read_write> pol: array<f32>;
@group(0) @binding(4) var<storage, read_write> cur: array<f32>;
@group(0) @binding(5) var<storage, read_write> hist: array<f32>;
@group(0) @binding(6) var<uniform> P: AdeParams;

@compute @workgroup_size(${WORKGROUP_LINEAR}, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let q = gid.x + gid.y * nwg.x * ${u32(WORKGROUP_LINEAR)};
  let n = u32(P.count);
  if (q >= n) { return; }
  let at = u32(P.cells) + 3u * q;
  let p = cells[at];
  let m = cells[at + 1u];
  var s = cells[at + 2u];
  let value = ${loadAtWgsl(storage, "f", "p")} - tab[u32(P.correction) + m] * hist[q];
  ${storeAtWgsl(storage, "f", "p", "value")}
  let previous = hist[n + q];
  let drive = value + 2.0 * previous + hist[2u * n + q];
  var history = 0.0;
  var kappa = 0.0;
  let first = cells[u32(P.poleStart) + m];
  let last = cells[u32(P.poleStart) + m + 1u];
  for (var slot = first; slot < last; slot = slot + 1u) {
    let kP = tab[u32(P.cP) + slot];
    let kJ = tab[u32(P.cJ) + slot];
    let kE = tab[u32(P.cE) + slot];
    let next = kP * pol[s] + kJ * cur[s] + kE * drive;
    let pNext = pol[s] + next;
    pol[s] = pNext;
    cur[s] = next;
    history = history + kP * pNext + kJ * next;
    kappa = kappa + kE;
    s = s + 1u;
  }
  hist[q] = history + kappa * (2.0 * value + previous);
  hist[2u * n + q] = previous;
  hist[n + q] = value;
}
`;
}

/**
 * The entry of a workgroup reduction over `P.count` values (energy, monitor change): `group`
 * (a 2-D dispatch's workgroups numbered row by row), `first`, the group's first of its
 * `span` values, and `n`.
 */
function reductionEntry(span: number): string {
  return `@compute @workgroup_size(${WORKGROUP_LINEAR}, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3u, @builtin(workgroup_id) wid: vec3u,
        @builtin(num_workgroups) nwg: vec3u) {
  let group = wid.x + wid.y * nwg.x;
  let first = group * ${u32(span)};
  let n = u32(P.count);`;
}

/** Uniform parameters of one component's energy reduction. */
export const ENERGY_PARAMS = [
  "count",
  "comp",
  "out",
  "useIndex",
  "scale",
  "pad0",
  "pad1",
  "pad2",
] as const;
export const ENERGY_FLOAT_PARAMS: ReadonlySet<string> = new Set(["scale"]);

/**
 * Σ ε_r·(s·F)² over every stored value of one component (yee.ts fieldEnergy; ε_r 1 for H):
 * `scale` s takes a stored value to the field in units of the source's field scale
 * (field-storage.ts energyScales), so that the float32 squares and sums stay within range
 * whatever the source's amplitude (a dipole's near field on fine cells, 1e19 V/m and more,
 * has a square past float32's end). Each thread sums ENERGY_VALUES_PER_THREAD values a
 * workgroup apart (coalesced), the workgroup reduces in shared memory, and one float32
 * partial per workgroup goes to `partials`, summed in float64 on the CPU and multiplied back.
 */
export function energyShader(g: ShaderGrid): string {
  const span = WORKGROUP_LINEAR * ENERGY_VALUES_PER_THREAD;
  // Split indices: each E component's pass binds that component's buffer alone.
  return `const IDX_WORDS: u32 = ${u32(g.indexSplit ? 0 : g.indexWords)};
${fieldAccessWgsl(g.storage, g.layout.strides[0])}
${structOf("EnergyParams", ENERGY_PARAMS, ENERGY_FLOAT_PARAMS)}
@group(0) @binding(0) var<storage, read> f: array<${fieldWgslType(g.storage)}>;
@group(0) @binding(1) var<storage, read> idx: array<u32>;
@group(0) @binding(2) var<storage, read> tab: array<f32>;
@group(0) @binding(3) var<storage, read_write> partials: array<f32>;
@group(0) @binding(4) var<uniform> P: EnergyParams;
var<workgroup> part: array<f32, ${WORKGROUP_LINEAR}>;
${materialOfWgsl(g.indexBits)}
${reductionEntry(span)}
  var sum = 0.0;
  for (var r = 0u; r < ${u32(ENERGY_VALUES_PER_THREAD)}; r = r + 1u) {
    let p = first + r * ${u32(WORKGROUP_LINEAR)} + lid.x;
    if (p < n) {
      let v = ${loadAtWgsl(g.storage, "f", "p")} * P.scale;
      var w = 1.0;
      if (P.useIndex == 1) { w = tab[${u32(g.tables.eps)} + materialOf(u32(P.comp), p)]; }
      sum = sum + w * v * v;
    }
  }
  part[lid.x] = sum;
  workgroupBarrier();
  for (var s = ${u32(WORKGROUP_LINEAR / 2)}; s > 0u; s = s >> 1u) {
    if (lid.x < s) { part[lid.x] = part[lid.x] + part[lid.x + s]; }
    workgroupBarrier();
  }
  if (lid.x == 0u && first < n) { partials[u32(P.out) + group] = part[0]; }
}
`;
}

/** Running-sum values each thread of the monitor-change reduction takes. */
export const CHANGE_VALUES_PER_THREAD = 16;

/** Uniform parameters of one stream's monitor-change reduction. */
export const CHANGE_PARAMS = [
  "count",
  "sums",
  "prev",
  "perWavelength",
  "weights",
  "out",
  "scale",
] as const;
/**
 * `scale` takes the running sums to units of the source's field scale (field-storage.ts
 * energyUnit): a 1 A·m dipole's sums on 10 nm cells are about 1e19, whose float32 squares
 * overflowed, and the change came out NaN (a run that never converged).
 */
export const CHANGE_FLOAT_PARAMS: ReadonlySet<string> = new Set(["scale"]);

/**
 * The convergence test's two sums over one monitor stream's running DFT (run.ts
 * ConvergenceTest): with s = running sum − its Kahan compensation and p the value of s at the
 * previous check, Σ w·(s − p)² and Σ w·s², w the weight of the value's wavelength (its
 * `perWavelength` values lie together, wavelength after wavelength, as dftShader writes them);
 * then p ← s. One (Σ w(s−p)², Σ w s²) float32 pair per workgroup goes to `partials`, summed in
 * float64 on the CPU: a check reads a pair per 2048 values instead of every running sum.
 */
export function changeShader(): string {
  const span = WORKGROUP_LINEAR * CHANGE_VALUES_PER_THREAD;
  return `${structOf("ChangeParams", CHANGE_PARAMS, CHANGE_FLOAT_PARAMS)}
@group(0) @binding(0) var<storage, read> sums: array<f32>;
@group(0) @binding(1) var<storage, read_write> prev: array<f32>;
@group(0) @binding(2) var<storage, read> weights: array<f32>;
@group(0) @binding(3) var<storage, read_write> partials: array<f32>;
@group(0) @binding(4) var<uniform> P: ChangeParams;
var<workgroup> partD: array<f32, ${WORKGROUP_LINEAR}>;
var<workgroup> partT: array<f32, ${WORKGROUP_LINEAR}>;
${reductionEntry(span)}
  var d = 0.0;
  var t = 0.0;
  for (var r = 0u; r < ${u32(CHANGE_VALUES_PER_THREAD)}; r = r + 1u) {
    let v = first + r * ${u32(WORKGROUP_LINEAR)} + lid.x;
    if (v < n) {
      let s = (sums[u32(P.sums) + v] - sums[u32(P.sums) + n + v]) * P.scale;
      let w = weights[u32(P.weights) + v / u32(P.perWavelength)];
      let at = u32(P.prev) + v;
      let change = s - prev[at];
      prev[at] = s;
      d = d + w * change * change;
      t = t + w * s * s;
    }
  }
  partD[lid.x] = d;
  partT[lid.x] = t;
  workgroupBarrier();
  for (var k = ${u32(WORKGROUP_LINEAR / 2)}; k > 0u; k = k >> 1u) {
    if (lid.x < k) {
      partD[lid.x] = partD[lid.x] + partD[lid.x + k];
      partT[lid.x] = partT[lid.x] + partT[lid.x + k];
    }
    workgroupBarrier();
  }
  if (lid.x == 0u && first < n) {
    partials[2u * (u32(P.out) + group)] = partD[0];
    partials[2u * (u32(P.out) + group) + 1u] = partT[0];
  }
}
`;
}

/** Packs named parameters into the bytes of a uniform buffer (int32, or float32 where named). */
export function packParams(
  fields: readonly string[],
  floats: ReadonlySet<string>,
  values: Record<string, number>,
): ArrayBuffer {
  const words = Math.ceil(fields.length / 4) * 4;
  const buf = new ArrayBuffer(words * 4);
  const ints = new Int32Array(buf);
  const fl = new Float32Array(buf);
  fields.forEach((name, i) => {
    const v = values[name] ?? 0;
    if (floats.has(name)) fl[i] = v;
    else ints[i] = v;
  });
  return buf;
}
