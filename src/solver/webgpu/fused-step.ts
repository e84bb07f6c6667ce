/**
 * A whole time step in one pass: H and then E of the same cells (issue #32). The two bulk
 * passes (shaders.ts) move 72 B of fields a cell-update, because the E pass reads again the H
 * the H pass has just written and the E it read; this pass reads every field once and writes it
 * once (48 B), taking the H its E updates need from workgroup memory. On an H200 the pattern ran
 * 56–62 Gcell/s at 200³–500³ against 30–51 for two passes (bench/gpu-fused-probe.ts,
 * docs/benchmarks.md).
 *
 * A workgroup owns a TILE_K × TILE_J block of (j, k) and walks PLANES x-planes. On each plane it
 * first computes H at its cells and at the column and row before them (k − 1, j − 1: the halo,
 * recomputed from the same old values as their owners use, not written), into workgroup
 * memory, then E at its cells; H of the plane before (x − 1) stays in each thread's registers.
 * So the pass reads one field set and writes the other ("ping-pong": the engine swaps them
 * every step), and the absorber's ψ likewise (`aux` read, `auxOut` written): a halo cell in a
 * slab reads ψ while its owner writes the new value. Nodes no update reaches (ghost planes,
 * walls, the padding) are the same in both sets and never written, so the pass serves only runs
 * without ghost copies (no periodic, Bloch or mirror planes) and with float32 fields, where
 * nothing but the bulk updates and the ADE pass writes the fields (engine.ts fusedStepAllowed).
 * The updates are the bulk passes' own (componentUpdate, with the absorber and the source's
 * injection terms), so the two paths agree to the rounding.
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
 * The tile unless EMSIM_WEBGPU_FUSED_TILE names another: on a GPU 64 × 4 walking 4 planes
 * (with 128 × 2 × 8 the fastest on an H200, bench/gpu-fused-probe.ts), on a software adapter
 * 32 × 4 (128 threads, what WebGPU's compatibility mode allows).
 */
export function defaultFusedTile(software: boolean): FusedTile {
  const named = (process.env[FUSED_TILE_ENV] ?? "").match(/^(\d+)x(\d+)x(\d+)$/);
  if (named) return { k: Number(named[1]), j: Number(named[2]), planes: Number(named[3]) };
  return software ? { k: 32, j: 4, planes: 4 } : { k: 64, j: 4, planes: 4 };
}

/** Storage buffers the fused pass binds: two field sets, two aux copies, the indices. */
export const FUSED_STORAGE_BUFFERS = 15;

/** Workgroup counts of the fused pass over nodes 0…n along each axis. */
export function fusedGroups(n: readonly number[], tile: FusedTile): [number, number, number] {
  return [
    Math.ceil((n[2]! + 1) / tile.k),
    Math.ceil((n[1]! + 1) / tile.j),
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
 * WGSL `eUpdate(i, j, k, hc, hx, hy, hz)`: E at node (i, j, k) from the new H here (hc) and at
 * the nodes before it along x, y and z; written to the new set, ψ to the new aux.
 */
function eUpdateFunction(g: ShaderGrid): string {
  const psiStore = (at: string, w: string) => `auxOut[${at}] = ${w};`;
  const updates = [0, 1, 2].map((c) =>
    componentUpdate(g, "E", c, (f) => `${f}Out[p] = v;`, psiStore),
  );
  // bulkLoads' names for E: the other field at p (hxp0) and behind along an axis (hx_y).
  const before = { x: "hBx", y: "hBy", z: "hBz" } as const;
  const loads: string[] = AXES.map((a) => `  let h${a}p0 = hc.${a};`);
  for (const comp of AXES) {
    for (const axis of AXES) {
      if (axis !== comp) loads.push(`  let h${comp}_${axis} = ${before[axis]}.${comp};`);
    }
  }
  loads.push(...AXES.map((a) => `  let e${a}p = e${a}[p];`));
  return `
fn eUpdate(i: i32, j: i32, k: i32, hc: vec3f, hBx: vec3f, hBy: vec3f, hBz: vec3f) {
  let p = at(i, j, k);
${stepLines(g, "E").join("\n")}
${loads.join("\n")}
${materialLines(g).join("\n")}
${updates.join("\n")}
}`;
}

/** The fused step's shader (module comment) for `tile`. */
export function fusedStepShader(g: ShaderGrid, tile: FusedTile): string {
  const width = tile.k + 1;
  const ext = width * (tile.j + 1);
  const sh = (c: number, at: string) => `sh[${c * ext}u + ${at}]`;
  const shared = (at: string) => `vec3f(${sh(0, at)}, ${sh(1, at)}, ${sh(2, at)})`;
  return `${prelude(g)}
${fusedBindings()}
${materialOfWgsl(g.indexBits)}
var<workgroup> sh: array<f32, ${3 * ext}>;
${hAfterFunction(g)}
${eUpdateFunction(g)}
@compute @workgroup_size(${tile.k}, ${tile.j}, 1)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_id) l: vec3u) {
  let k0 = i32(wg.x) * ${tile.k};
  let j0 = i32(wg.y) * ${tile.j};
  let i0 = i32(wg.z) * ${tile.planes};
  let i1 = min(i0 + ${tile.planes}, NX + 1);
  let k = k0 + i32(l.x);
  let j = j0 + i32(l.y);
  let mine = k <= NZ && j <= NY;
  // H at the plane before the first: the node's own, from the old set (never written here).
  var hBefore = vec3f(0.0);
  if (mine) { hBefore = hAfter(i0 - 1, j, k, false); }
  for (var i = i0; i < i1; i++) {
    for (var c = l.y * ${tile.k}u + l.x; c < ${ext}u; c += ${tile.k * tile.j}u) {
      let cj = i32(c / ${width}u);
      let ck = i32(c % ${width}u);
      let hj = j0 + cj - 1;
      let hk = k0 + ck - 1;
      var hv = vec3f(0.0);
      if (hj <= NY && hk <= NZ) { hv = hAfter(i, hj, hk, cj >= 1 && ck >= 1); }
      ${sh(0, "c")} = hv.x;
      ${sh(1, "c")} = hv.y;
      ${sh(2, "c")} = hv.z;
    }
    workgroupBarrier();
    if (mine) {
      let c0 = (l.y + 1u) * ${width}u + l.x + 1u;
      let hc = ${shared("c0")};
      eUpdate(i, j, k, hc, hBefore, ${shared(`c0 - ${width}u`)}, ${shared("c0 - 1u")});
      hBefore = hc;
    }
    workgroupBarrier();
  }
}
`;
}
