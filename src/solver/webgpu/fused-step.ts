/**
 * A whole time step in one pass: H and then E of the same cells (issue #32), where
 * EMSIM_WEBGPU_FUSED=1 asks for it (engine.ts fusedStepAllowed). The two bulk passes
 * (shaders.ts) move 72 B of fields a cell-update, because the E pass reads again the H the H
 * pass has just written and the E it read; this pass reads every field once and writes it once
 * (48 B), taking the H its E updates need from workgroup memory. In a bare probe of the pattern
 * (vacuum and a dielectric block, no absorber; bench/gpu-fused-probe.ts) an H200 stepped 56–62
 * Gcell/s at 200³–500³ against 30–51 for two passes; here, with the absorber's branches, the
 * range tests, the per-axis steps and three material indices, it stepped 30–33 Gcell/s at 500³
 * against 33–37 for the two passes, and 10–45 % slower on smaller grids, whatever the tile
 * (docs/benchmarks.md): its threads wait on their own loads and arithmetic, not on memory. So it
 * is off by default, kept for the measurements that would make it pay (a lighter pass for the
 * interior, the slabs apart).
 *
 * A workgroup of TILE_K × TILE_J threads walks PLANES x-planes; each thread computes H at one
 * node of a plane; the workgroup's first row and column (along j and k) are the halo: their H is
 * recomputed from the same old values as their owners use, and not written. The other threads
 * own their node: they write its H and then, once the workgroup's H is in workgroup memory,
 * compute and write its E; H of the plane before (x − 1) stays in each thread's registers. So
 * the pass reads one field set and writes the other ("ping-pong": the engine swaps them every
 * step), and the absorber's ψ likewise (`aux` read, `auxOut` written): a halo node in a slab
 * reads ψ while its owner writes the new value. Nodes no update reaches (ghost planes, walls,
 * the padding) are the same in both sets and never written, so the pass serves only runs without
 * ghost copies (no periodic, Bloch or mirror planes) and with float32 fields, where nothing but
 * the bulk updates and the ADE pass writes the fields. The updates are the bulk passes' own
 * (componentUpdate, with the absorber and the source's injection terms): the two paths give the
 * same values to the bit (webgpu/agreement-fields.test.ts).
 */
import {
  AXES,
  bulkLoads,
  componentUpdate,
  materialLines,
  prelude,
  stepLines,
  type ShaderGrid,
} from "./shaders.js";
import { materialOfWgsl } from "./material-index.js";
import { DRIVE_UNIFORM } from "./injection-terms.js";

/** A fused pass's workgroup: threads along z (k) and y (j), and x-planes walked. */
export interface FusedTile {
  k: number;
  j: number;
  planes: number;
}

/** The setting a benchmark compares tiles with: `KxJxPLANES`, e.g. 128x2x8. */
export const FUSED_TILE_ENV = "EMSIM_WEBGPU_FUSED_TILE";

/**
 * The tile unless EMSIM_WEBGPU_FUSED_TILE names another: on a GPU 32 × 8 walking 4 planes (the
 * fastest of seven tried on an H200, docs/benchmarks.md), on a software adapter 32 × 4 (128
 * threads, what WebGPU's compatibility mode allows).
 */
export function defaultFusedTile(software: boolean): FusedTile {
  const setting = process.env[FUSED_TILE_ENV];
  if (setting) {
    const [k, j, planes] = setting.split("x").map(Number);
    // A workgroup's first row and column are halo: at least two threads along k and j.
    const whole = [k, j, planes].every((x) => Number.isInteger(x));
    if (!whole || !(k! >= 2 && j! >= 2 && planes! >= 1)) {
      throw new Error(`${FUSED_TILE_ENV} must be KxJxPLANES with K, J ≥ 2, not "${setting}"`);
    }
    return { k: k!, j: j!, planes: planes! };
  }
  return software ? { k: 32, j: 4, planes: 4 } : { k: 32, j: 8, planes: 4 };
}

/** Storage buffers the fused pass binds: two field sets, two aux copies, the indices. */
export const FUSED_STORAGE_BUFFERS = 15;

/**
 * Workgroup counts of the fused pass over nodes 0…n along each axis: a workgroup owns
 * (k − 1) × (j − 1) of its threads' nodes (fusedStepShader).
 */
export function fusedGroups(n: readonly number[], tile: FusedTile): [number, number, number] {
  return [
    Math.ceil((n[2]! + 1) / (tile.k - 1)),
    Math.ceil((n[1]! + 1) / (tile.j - 1)),
    Math.ceil((n[0]! + 1) / tile.planes),
  ];
}

/**
 * Bindings: the old set's six components (read; bulkLoads' names ex … hz), the new set's
 * (exOut … hzOut), the old aux (tables, ψ, injection weights) and the new one, the material
 * indices; group 1 the step's drive values.
 */
function fusedBindings(): string {
  const names = ["e", "h"].flatMap((f) => AXES.map((a) => `${f}${a}`));
  const lines = names.map(
    (name, b) => `@group(0) @binding(${b}) var<storage, read> ${name}: array<f32>;`,
  );
  names.forEach((name, b) =>
    lines.push(`@group(0) @binding(${6 + b}) var<storage, read_write> ${name}Out: array<f32>;`),
  );
  lines.push(`@group(0) @binding(12) var<storage, read> aux: array<f32>;`);
  lines.push(`@group(0) @binding(13) var<storage, read_write> auxOut: array<f32>;`);
  lines.push(`@group(0) @binding(14) var<storage, read> idx: array<u32>;`);
  lines.push(DRIVE_UNIFORM);
  return lines.join("\n");
}

/**
 * WGSL `hAfter(i, j, k, owner)`: H at node (i, j, k) after the step's H update, from the old
 * set (values outside every component's range come back as they were); the owner of the node
 * also writes it, and its ψ, to the new set.
 */
function hAfterFunction(g: ShaderGrid): string {
  const psiStore = (at: string, w: string) => `if (owner) { auxOut[${at}] = ${w}; }`;
  const updates = [0, 1, 2].map((c) =>
    componentUpdate(
      g,
      "H",
      c,
      (f) => `${f}New = v;
    if (owner) { ${f}Out[p] = v; }`,
      psiStore,
    ),
  );
  return `
fn hAfter(i: i32, j: i32, k: i32, owner: bool) -> vec3f {
  let p = at(i, j, k);
${stepLines(g, "H").join("\n")}
${bulkLoads(g, "H")}
  var hxNew = hxp;
  var hyNew = hyp;
  var hzNew = hzp;
${updates.join("\n")}
  return vec3f(hxNew, hyNew, hzNew);
}`;
}

/**
 * WGSL `eInputs(i, j, k)`: what E's update at the node reads besides H (its old E, each
 * component's ca and cb, the inverse steps), loaded before the workgroup's H is ready so that
 * these loads are in flight while H is computed.
 */
function eInputsFunction(g: ShaderGrid): string {
  const vec = (names: string[]) => `vec3f(${names.join(", ")})`;
  return `
struct EInputs { e: vec3f, ca: vec3f, cb: vec3f, inv: vec3f }
fn eInputs(i: i32, j: i32, k: i32) -> EInputs {
  let p = at(i, j, k);
${stepLines(g, "E").join("\n")}
${materialLines(g).join("\n")}
  let e = ${vec(AXES.map((a) => `e${a}[p]`))};
  return EInputs(e, vec3f(ca0, ca1, ca2), vec3f(cb0, cb1, cb2), ${vec(AXES.map((a) => `i${a}`))});
}`;
}

/**
 * WGSL `eUpdate(i, j, k, q, hc, hBx, hBy, hBz)`: E at node (i, j, k) from its inputs q, the
 * new H here (hc) and at the nodes before it along x, y and z; written to the new set, ψ to the
 * new aux.
 */
function eUpdateFunction(g: ShaderGrid): string {
  const psiStore = (at: string, w: string) => `auxOut[${at}] = ${w};`;
  const updates = [0, 1, 2].map((c) =>
    componentUpdate(g, "E", c, (f) => `${f}Out[p] = v;`, psiStore),
  );
  // bulkLoads' and materialLines' names for what componentUpdate reads: the other field at p
  // (hxp0) and behind along an axis (hx_y), the own field (exp), ca0 …, the steps ix ….
  const before = { x: "hBx", y: "hBy", z: "hBz" } as const;
  const names: string[] = AXES.map((a) => `  let h${a}p0 = hc.${a};`);
  for (const comp of AXES) {
    for (const axis of AXES) {
      if (axis !== comp) names.push(`  let h${comp}_${axis} = ${before[axis]}.${comp};`);
    }
  }
  AXES.forEach((a, c) => {
    names.push(
      `  let e${a}p = q.e.${a};`,
      `  let ca${c} = q.ca.${a};`,
      `  let cb${c} = q.cb.${a};`,
    );
    names.push(`  let i${a} = q.inv.${a};`);
  });
  return `
fn eUpdate(i: i32, j: i32, k: i32, q: EInputs, hc: vec3f, hBx: vec3f, hBy: vec3f, hBz: vec3f) {
  let p = at(i, j, k);
${names.join("\n")}
${updates.join("\n")}
}`;
}

/**
 * The fused step's shader (module comment) for `tile`. Each thread computes H at one node; the
 * workgroup's first row and column (along j and k) are the halo, the other threads own their
 * node and also update its E, so that no thread computes H twice on a plane.
 */
export function fusedStepShader(g: ShaderGrid, tile: FusedTile): string {
  const threads = tile.k * tile.j;
  const sh = (c: number, at: string) => `sh[${c * threads}u + ${at}]`;
  const shared = (at: string) => `vec3f(${sh(0, at)}, ${sh(1, at)}, ${sh(2, at)})`;
  return `${prelude(g)}
${fusedBindings()}
${materialOfWgsl(g.indexBits)}
var<workgroup> sh: array<f32, ${3 * threads}>;
${hAfterFunction(g)}
${eInputsFunction(g)}
${eUpdateFunction(g)}
@compute @workgroup_size(${tile.k}, ${tile.j}, 1)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_id) l: vec3u) {
  let k = i32(wg.x) * ${tile.k - 1} - 1 + i32(l.x);
  let j = i32(wg.y) * ${tile.j - 1} - 1 + i32(l.y);
  let i0 = i32(wg.z) * ${tile.planes};
  let i1 = min(i0 + ${tile.planes}, NX + 1);
  let inGrid = k <= NZ && j <= NY;
  let mine = inGrid && l.x >= 1u && l.y >= 1u;
  let c0 = l.y * ${tile.k}u + l.x;
  // H at the plane before the first: the node's own, from the old set (never written here).
  var hBefore = vec3f(0.0);
  if (mine) { hBefore = hAfter(i0 - 1, j, k, false); }
  for (var i = i0; i < i1; i++) {
    var q: EInputs;
    if (mine) { q = eInputs(i, j, k); }
    var hc = vec3f(0.0);
    if (inGrid) { hc = hAfter(i, j, k, mine); }
    ${sh(0, "c0")} = hc.x;
    ${sh(1, "c0")} = hc.y;
    ${sh(2, "c0")} = hc.z;
    workgroupBarrier();
    if (mine) {
      eUpdate(i, j, k, q, hc, hBefore, ${shared(`c0 - ${tile.k}u`)}, ${shared("c0 - 1u")});
      hBefore = hc;
    }
    workgroupBarrier();
  }
}
`;
}
