/**
 * The bulk H and E passes on fields stored as float16 pairs (field-storage.ts): a thread per
 * word, i.e. per (y, z) position of two neighbouring padded x-planes 2m and 2m + 1 (nodes
 * i = 2m − 1 and 2m), so that every word is written by one thread. The thread loads its twelve
 * words first (each a pair of values: the other field at its own word and its neighbours', its
 * own field), then runs the float32 pass's update (shaders.ts componentUpdate, the same
 * equations, absorber and source terms) on each of its two nodes, and stores its three words.
 *
 * Along y and z a node's neighbour is the same half of the neighbouring word. Along x, H's
 * forward neighbour of node 2m − 1 is the other half of its own word and that of node 2m the
 * low half of the next word; E's backward neighbour of node 2m − 1 is the high half of the
 * previous word and that of node 2m the low half of its own.
 */
import type { YeeLayout } from "../grid.js";
import { fieldBufferBytes } from "./field-storage.js";
import { materialOfWgsl } from "./material-index.js";
import {
  AXES,
  bulkBindings,
  componentUpdate,
  materialLines,
  prelude,
  stepLines,
  u32,
  type BulkShape,
  type ShaderGrid,
} from "./shaders.js";

/** Word planes a packed pass covers: m = 0 … (nx + 1) >> 1 (padded planes 1 … nx + 1). */
function wordPlanes(layout: YeeLayout): number {
  return (layout.n[0] + 1) >> 1;
}

/** Workgroup counts of a packed bulk pass. */
export function packedBulkGroups(layout: YeeLayout, shape: BulkShape): [number, number, number] {
  const [, ny, nz] = layout.n;
  return [Math.ceil((nz + 1) / shape.x), Math.ceil((ny + 1) / shape.y), wordPlanes(layout) + 1];
}

/** The neighbouring word along `axis` (forward for H, backward for E), clamped into the array. */
function neighbourWord(axis: number, forward: boolean): string {
  const stride = ["SX", "SY", "1u"][axis];
  if (forward) return `min(q + ${stride}, LASTW)`;
  // Only the x-neighbour of word plane 0 would lie before the array (a ghost plane's node).
  return axis === 0 ? `select(q - SX, 0u, q < SX)` : `q - ${stride}`;
}

/** The words a thread loads, as vec2f pairs of the fields' values (field-storage.ts's scales). */
function wordLoads(g: ShaderGrid, kind: "H" | "E"): string[] {
  const updatesH = kind === "H";
  const [own, other] = updatesH ? ["h", "e"] : ["e", "h"];
  const load = (field: string, word: string) =>
    `unpack2x16float(${field}[${word}]) * ${Math.fround(1 / g.scales[field[0] as "e" | "h"])}`;
  const lines = AXES.map((a) => `  let ${other}${a}W = ${load(other + a, "q")};`);
  for (let comp = 0; comp < 3; comp++) {
    for (let axis = 0; axis < 3; axis++) {
      if (axis === comp) continue;
      const f = other + AXES[comp];
      lines.push(`  let ${f}_${AXES[axis]}W = ${load(f, neighbourWord(axis, updatesH))};`);
    }
  }
  lines.push(...AXES.map((a) => `  let ${own}${a}W = ${load(own + a, "q")};`));
  lines.push(...AXES.map((a) => `  var ${own}${a}N = ${own}${a}W;`));
  return lines;
}

/**
 * One node's block (half h of the thread's words): its coordinates, its values under the names
 * componentUpdate reads (shaders.ts bulkLoads), its materials, and the three updates, each
 * keeping its value in half h of the new pair.
 */
function nodeBlock(g: ShaderGrid, kind: "H" | "E", h: 0 | 1): string {
  const updatesH = kind === "H";
  const [own, other] = updatesH ? ["h", "e"] : ["e", "h"];
  const half = h === 0 ? "x" : "y";
  const lines = [`  let i = 2 * m - 1 + ${h};`, `  let p = at(i, j, k);`, ...stepLines(g, kind)];
  lines.push(...AXES.map((a) => `  let ${other}${a}p0 = ${other}${a}W.${half};`));
  for (let comp = 0; comp < 3; comp++) {
    for (let axis = 0; axis < 3; axis++) {
      if (axis === comp) continue;
      const f = other + AXES[comp];
      let value = `${f}_${AXES[axis]}W.${half}`;
      // Along x the neighbour is in the other half (module comment).
      if (axis === 0 && updatesH) value = h === 0 ? `${f}W.y` : `${f}_xW.x`;
      if (axis === 0 && !updatesH) value = h === 0 ? `${f}_xW.y` : `${f}W.x`;
      lines.push(`  let ${f}_${AXES[axis]} = ${value};`);
    }
  }
  lines.push(...AXES.map((a) => `  let ${own}${a}p = ${own}${a}W.${half};`));
  if (!updatesH) lines.push(...materialLines(g));
  const updates = [0, 1, 2].map((c) => componentUpdate(g, kind, c, (f) => `${f}N.${half} = v;`));
  return `  {\n${[...lines, ...updates].join("\n")}\n  }`;
}

/** The packed bulk pass of `kind` (module comment); bindings as the float32 pass's. */
export function packedUpdateShader(g: ShaderGrid, kind: "H" | "E"): string {
  const updatesH = kind === "H";
  const own = updatesH ? "h" : "e";
  const [sx] = g.layout.strides;
  const words = fieldBufferBytes("float16", g.layout.paddedCells / sx, sx) / 4;
  const scale = Math.fround(g.scales[own as "e" | "h"]);
  const stores = AXES.map((a) => `  ${own}${a}[q] = pack2x16float(${own}${a}N * ${scale});`);
  const { x, y } = g.bulk;
  return `${prelude(g)}
const MW: i32 = ${wordPlanes(g.layout)}i;
const LASTW: u32 = ${u32(words - 1)};
${bulkBindings(kind, "u32", g.indexSplit)}
${updatesH ? "" : materialOfWgsl(g.indexBits, g.indexSplit)}
@compute @workgroup_size(${x}, ${y}, 1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let k = i32(gid.x);
  let j = i32(gid.y);
  let m = i32(gid.z);
  if (k > NZ || j > NY || m > MW) { return; }
  let q = u32(m) * SX + u32(j + 1) * SY + u32(k + 1);
${wordLoads(g, kind).join("\n")}
${nodeBlock(g, kind, 0)}
${nodeBlock(g, kind, 1)}
${stores.join("\n")}
}
`;
}
