/**
 * What fusing the H and E half steps into one pass would be worth on this adapter (issue #32):
 * a probe, not the solver. The webgpu backend's bulk passes move about 73 B of fields and
 * material per cell-update in the interior (the H pass reads E and H and writes H; the E pass
 * reads H, E and the material index and writes E); a pass that updates H and then E of the same
 * cells moves 49 B (every field read once and written once, the index once), if the H values
 * its E updates need from neighbouring cells come from on-chip memory rather than DRAM.
 *
 * Both kernels here step the same normalised Yee equations on a vacuum grid with a dielectric
 * block (an 8-bit material index per cell into a table of (ca, cb)), no absorber, no sources,
 * fields zero outside the grid:
 *  - `two-pass`: an H pass and an E pass per step, one thread per cell, 128 × 1 workgroups, in
 *    place (the backend's scheme);
 *  - `fused TXxTYxKZ`: one pass per step, fields in two sets read from one and written to the
 *    other. A TX × TY workgroup walks KZ planes along z; on each plane it first computes H at
 *    its cells and at the row and column below them (the halo, recomputed, not written) into
 *    workgroup memory, then E at its cells from those; H of the plane below stays in registers.
 *
 * Each field set is one buffer (components one after another), so a binding holds grids up to
 * about 800³. The two are checked against each other on a small grid before anything is timed.
 *
 *   node --import tsx bench/gpu-fused-probe.ts [grid edges, default 128,200,500]
 *
 * BENCH_FUSED_SHAPES picks the fused shapes (DEFAULT_SHAPES). Prints a
 * markdown table: Mcell/s by wall clock and by timestamps, GB/s by the bytes counted above.
 */
import { findGpuAdapter } from "../src/solver/webgpu/device.js";
import { submitAndWait, timed, timestampQueries, type Timing } from "./gpu-bandwidth.js";

/**
 * The fused shapes tried unless BENCH_FUSED_SHAPES says: TX x TY x KZ, "s" for a buffer per
 * component. On an H200 (2026-11-30) 64x4x4 and 128x2x8 were the fastest of 4 to 16 planes and
 * 32 to 256 threads along x.
 */
const DEFAULT_SHAPES = "64x4x4,128x2x8,64x4x4s,128x2x8s,64x8x4,128x4x4";

/** The Courant number of the probe's updates (stable in 3-D below 1/√3). */
const COURANT = 0.5;
/** Relative permittivity of the block in the middle of the grid. */
const BLOCK_EPS = 4;

interface Grid {
  nx: number;
  ny: number;
  nz: number;
}

interface Shape {
  tx: number;
  ty: number;
  kz: number;
  layout: Layout;
}

const cellsOf = (g: Grid) => g.nx * g.ny * g.nz;

/** Constants and the coefficient lookup both kernels share. */
function header(g: Grid): string {
  return `
const NX = ${g.nx}u; const NY = ${g.ny}u; const NZ = ${g.nz}u;
const SY = NX; const SZ = ${g.nx * g.ny}u; const N = ${cellsOf(g)}u; const N2 = ${2 * cellsOf(g)}u;
const CH = ${COURANT};
fn coef(p: u32) -> vec2<f32> {
  return table[(mat[p >> 2u] >> ((p & 3u) * 8u)) & 255u];
}`;
}

/**
 * How a kernel names component c of a field set's buffer(s) at index q: `packed`, one buffer
 * of three components one after another; `split`, a buffer per component (as the solver).
 */
type Layout = "packed" | "split";
function fieldAt(layout: Layout, buffer: string, c: number, q: string): string {
  return layout === "split" ? `${buffer}${c}[${q}]` : `${buffer}[${["", "N + ", "N2 + "][c]}${q}]`;
}

/** WGSL bindings of field sets `names` (read or read_write), from binding `first` on. */
function fieldBindings(layout: Layout, names: [string, "read" | "read_write"][], first = 0) {
  const perSet = layout === "split" ? [0, 1, 2].map(String) : [""];
  const all = names.flatMap(([n, access]) => perSet.map((c) => [`${n}${c}`, access] as const));
  return all
    .map(
      ([n, access], b) =>
        `@group(0) @binding(${first + b}) var<storage, ${access}> ${n}: array<f32>;`,
    )
    .join("\n");
}

/** WGSL: H after the half step at cell p of (i, j, k), from `hs` and `es` (forward differences). */
function hUpdate(layout: Layout, hs: string, es: string): string {
  const e = (c: number, q: string) => fieldAt(layout, es, c, q);
  const h = (c: number) => fieldAt(layout, hs, c, "p");
  return `
  let pi = select(p, p + 1u, i + 1u < NX);
  let pj = select(p, p + SY, j + 1u < NY);
  let pk = select(p, p + SZ, k + 1u < NZ);
  let ex = ${e(0, "p")}; let ey = ${e(1, "p")}; let ez = ${e(2, "p")};
  let hNew = vec3<f32>(
    ${h(0)} - CH * ((${e(2, "pj")} - ez) - (${e(1, "pk")} - ey)),
    ${h(1)} - CH * ((${e(0, "pk")} - ex) - (${e(2, "pi")} - ez)),
    ${h(2)} - CH * ((${e(1, "pi")} - ey) - (${e(0, "pj")} - ex)));`;
}

/** WGSL: E after the half step at p from H here (hc) and behind along x, y, z (hi, hj, hk). */
function eUpdate(layout: Layout, es: string, out: string): string {
  const e = (c: number) => fieldAt(layout, es, c, "p");
  const o = (c: number) => fieldAt(layout, out, c, "p");
  return `
  let c = coef(p);
  ${o(0)} = c.x * ${e(0)} + c.y * ((hc.z - hj.z) - (hc.y - hk.y));
  ${o(1)} = c.x * ${e(1)} + c.y * ((hc.x - hk.x) - (hc.z - hi.z));
  ${o(2)} = c.x * ${e(2)} + c.y * ((hc.y - hi.y) - (hc.x - hj.x));`;
}

/** The two-pass kernels' WGSL (entry points `hPass`, `ePass`), in place on `h` and `e`. */
function twoPassCode(g: Grid): string {
  const at = (d: string, cond: string) => `select(vec3<f32>(0.0), hAt(p - ${d}), ${cond})`;
  return `
@group(0) @binding(0) var<storage, read_write> h: array<f32>;
@group(0) @binding(1) var<storage, read_write> e: array<f32>;
@group(0) @binding(2) var<storage, read> mat: array<u32>;
@group(0) @binding(3) var<storage, read> table: array<vec2<f32>>;
${header(g)}
fn hAt(q: u32) -> vec3<f32> { return vec3<f32>(h[q], h[N + q], h[N2 + q]); }
@compute @workgroup_size(128)
fn hPass(@builtin(global_invocation_id) id: vec3<u32>) {
  let i = id.x; let j = id.y; let k = id.z;
  if (i >= NX) { return; }
  let p = i + SY * j + SZ * k;${hUpdate("packed", "h", "e")}
  h[p] = hNew.x; h[N + p] = hNew.y; h[N2 + p] = hNew.z;
}
@compute @workgroup_size(128)
fn ePass(@builtin(global_invocation_id) id: vec3<u32>) {
  let i = id.x; let j = id.y; let k = id.z;
  if (i >= NX) { return; }
  let p = i + SY * j + SZ * k;
  let hc = hAt(p);
  let hi = ${at("select(0u, 1u, i > 0u)", "i > 0u")};
  let hj = ${at("select(0u, SY, j > 0u)", "j > 0u")};
  let hk = ${at("select(0u, SZ, k > 0u)", "k > 0u")};${eUpdate("packed", "e", "e")}
}`;
}

/** The fused kernel's WGSL (entry point `step`): reads hOld, eOld; writes hOut, eOut. */
function fusedCode(g: Grid, s: Shape): string {
  const sets = fieldBindings(s.layout, [
    ["hOld", "read"],
    ["eOld", "read"],
    ["hOut", "read_write"],
    ["eOut", "read_write"],
  ]);
  const first = s.layout === "split" ? 12 : 4;
  const hOut = (c: number) => fieldAt(s.layout, "hOut", c, "q");
  const w = s.tx + 1;
  const ext = w * (s.ty + 1);
  const shared = (comp: number, at: string) => `sh[${comp * ext}u + ${at}]`;
  const fromShared = (at: string) =>
    `vec3<f32>(${shared(0, at)}, ${shared(1, at)}, ${shared(2, at)})`;
  return `
${sets}
@group(0) @binding(${first}) var<storage, read> mat: array<u32>;
@group(0) @binding(${first + 1}) var<storage, read> table: array<vec2<f32>>;
${header(g)}
var<workgroup> sh: array<f32, ${3 * ext}>;
fn hAfter(i: u32, j: u32, k: u32) -> vec3<f32> {
  let p = i + SY * j + SZ * k;${hUpdate(s.layout, "hOld", "eOld")}
  return hNew;
}
@compute @workgroup_size(${s.tx}, ${s.ty})
fn step(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) l: vec3<u32>) {
  let i0 = wg.x * ${s.tx}u; let j0 = wg.y * ${s.ty}u;
  let k0 = wg.z * ${s.kz}u; let k1 = min(k0 + ${s.kz}u, NZ);
  let i = i0 + l.x; let j = j0 + l.y;
  let inside = i < NX && j < NY;
  var hBelow = vec3<f32>(0.0);
  if (k0 > 0u && inside) { hBelow = hAfter(i, j, k0 - 1u); }
  for (var k = k0; k < k1; k++) {
    // H at the tile and the row and column before it (x and y one less), into sh.
    for (var c = l.y * ${s.tx}u + l.x; c < ${ext}u; c += ${s.tx * s.ty}u) {
      let ci = c % ${w}u; let cj = c / ${w}u;
      var hv = vec3<f32>(0.0);
      if (i0 + ci >= 1u && j0 + cj >= 1u && i0 + ci - 1u < NX && j0 + cj - 1u < NY) {
        let gi = i0 + ci - 1u; let gj = j0 + cj - 1u;
        hv = hAfter(gi, gj, k);
        if (ci >= 1u && cj >= 1u) {
          let q = gi + SY * gj + SZ * k;
          ${hOut(0)} = hv.x; ${hOut(1)} = hv.y; ${hOut(2)} = hv.z;
        }
      }
      ${shared(0, "c")} = hv.x; ${shared(1, "c")} = hv.y; ${shared(2, "c")} = hv.z;
    }
    workgroupBarrier();
    if (inside) {
      let p = i + SY * j + SZ * k;
      let c0 = (l.y + 1u) * ${w}u + l.x + 1u;
      let hc = ${fromShared("c0")};
      let hi = ${fromShared("c0 - 1u")};
      let hj = ${fromShared(`c0 - ${w}u`)};
      let hk = hBelow;${eUpdate(s.layout, "eOld", "eOut")}
      hBelow = hc;
    }
    workgroupBarrier();
  }
}`;
}

/** Field sets ([set][buffer]: one buffer of three components, or three), material, table. */
interface Buffers {
  layout: Layout;
  h: GPUBuffer[][];
  e: GPUBuffer[][];
  mat: GPUBuffer;
  table: GPUBuffer;
}

/** The pattern the fields start from: value q of a set's 3N is PATTERN[q % its length]. */
const PATTERN = (() => {
  const values = new Float32Array(1 << 20);
  let seed = 987654321;
  for (let c = 0; c < values.length; c++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    values[c] = seed / 2 ** 31 - 1;
  }
  return values;
})();

/** Writes the pattern's values first … first + count − 1 into `buffer` from its start. */
async function fillPattern(device: GPUDevice, buffer: GPUBuffer, first: number, count: number) {
  for (let done = 0; done < count;) {
    const at = (first + done) % PATTERN.length;
    const length = Math.min(PATTERN.length - at, count - done);
    device.queue.writeBuffer(buffer, 4 * done, PATTERN, at, length);
    done += length;
  }
  await device.queue.onSubmittedWorkDone(); // the staging copies freed before the next
}

/** Field sets in `layout`, filled alike from the pattern; a block of dielectric. */
async function allocate(device: GPUDevice, g: Grid, sets: number, layout: Layout) {
  const n = cellsOf(g);
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const parts = layout === "split" ? 3 : 1;
  const set = async () => {
    const buffers = [];
    for (let c = 0; c < parts; c++) {
      const buffer = device.createBuffer({ size: (12 / parts) * n, usage });
      await fillPattern(device, buffer, c * n, (3 / parts) * n);
      buffers.push(buffer);
    }
    return buffers;
  };
  const [h, e]: GPUBuffer[][][] = [[], []];
  for (let k = 0; k < sets; k++) h.push(await set());
  for (let k = 0; k < sets; k++) e.push(await set());
  const words = new Uint32Array(Math.ceil(n / 4));
  const inBlock = (a: number, na: number) => a >= na / 4 && a < (3 * na) / 4;
  for (let k = 0; k < g.nz; k++)
    for (let j = 0; j < g.ny; j++)
      for (let i = 0; i < g.nx; i++) {
        const p = i + g.nx * (j + g.ny * k);
        const m = inBlock(i, g.nx) && inBlock(j, g.ny) && inBlock(k, g.nz) ? 1 : 0;
        words[p >> 2]! |= m << ((p & 3) * 8);
      }
  const mat = device.createBuffer({ size: words.byteLength, usage });
  device.queue.writeBuffer(mat, 0, words);
  const table = device.createBuffer({ size: 256 * 8, usage });
  device.queue.writeBuffer(table, 0, new Float32Array([1, COURANT, 1, COURANT / BLOCK_EPS]));
  return { layout, h, e, mat, table } satisfies Buffers;
}

function destroy(b: Buffers): void {
  [...b.h.flat(), ...b.e.flat(), b.mat, b.table].forEach((x) => x.destroy());
}

/** A function that encodes `steps` steps of a kernel into a compute pass. */
type Stepper = (pass: GPUComputePassEncoder, steps: number) => void;

/** A compute pipeline of one entry point, on `layout` (default: the shader's own). */
function pipelineOf(
  device: GPUDevice,
  code: string,
  entryPoint: string,
  layout: GPUPipelineLayout | "auto" = "auto",
): GPUComputePipeline {
  const module = device.createShaderModule({ code });
  return device.createComputePipeline({ layout, compute: { module, entryPoint } });
}

function bindGroup(device: GPUDevice, layout: GPUBindGroupLayout, buffers: GPUBuffer[]) {
  const entries = buffers.map((buffer, binding) => ({ binding, resource: { buffer } }));
  return device.createBindGroup({ layout, entries });
}

/** Awaits `make`; throws what the device found invalid in, or could not fit of, what it made. */
async function validated<T>(device: GPUDevice, make: () => T | Promise<T>): Promise<T> {
  device.pushErrorScope("validation");
  device.pushErrorScope("out-of-memory");
  const made = await make();
  const errors = [await device.popErrorScope(), await device.popErrorScope()];
  const error = errors.find((e) => e !== null);
  if (error) throw new Error(`the probe cannot run here: ${error.message}`);
  return made;
}

/** The two-pass scheme on field set 0 (one layout for both passes: E's four bindings). */
function twoPass(device: GPUDevice, g: Grid, b: Buffers): Stepper {
  const code = twoPassCode(g);
  const entry = (binding: number, type: GPUBufferBindingType) => ({
    binding,
    visibility: GPUShaderStage.COMPUTE,
    buffer: { type },
  });
  const groupLayout = device.createBindGroupLayout({
    entries: [entry(0, "storage"), entry(1, "storage")].concat(
      [2, 3].map((n) => entry(n, "read-only-storage")),
    ),
  });
  const layout = device.createPipelineLayout({ bindGroupLayouts: [groupLayout] });
  const [hp, ep] = ["hPass", "ePass"].map((name) => pipelineOf(device, code, name, layout));
  const group = bindGroup(device, groupLayout, [...b.h[0]!, ...b.e[0]!, b.mat, b.table]);
  const x = Math.ceil(g.nx / 128);
  return (pass, steps) => {
    pass.setBindGroup(0, group);
    for (let s = 0; s < steps; s++) {
      pass.setPipeline(hp!);
      pass.dispatchWorkgroups(x, g.ny, g.nz);
      pass.setPipeline(ep!);
      pass.dispatchWorkgroups(x, g.ny, g.nz);
    }
  };
}

/** The fused scheme, from set 0 into set 1 and back; steps come in pairs (ending in set 0). */
function fused(device: GPUDevice, g: Grid, b: Buffers, s: Shape): Stepper {
  const p = pipelineOf(device, fusedCode(g, s), "step");
  const [x, y, z] = [Math.ceil(g.nx / s.tx), Math.ceil(g.ny / s.ty), Math.ceil(g.nz / s.kz)];
  const layout = p.getBindGroupLayout(0);
  const sets = (from: number, to: number) => [b.h[from]!, b.e[from]!, b.h[to]!, b.e[to]!].flat();
  const there = bindGroup(device, layout, [...sets(0, 1), b.mat, b.table]);
  const back = bindGroup(device, layout, [...sets(1, 0), b.mat, b.table]);
  return (pass, steps) => {
    pass.setPipeline(p);
    for (let n = 0; n < steps; n++) {
      pass.setBindGroup(0, n % 2 === 0 ? there : back);
      pass.dispatchWorkgroups(x, y, z);
    }
  };
}

/** Runs `steps` steps in one compute pass; wall and timestamp seconds. */
async function runSteps(device: GPUDevice, stepper: Stepper, steps: number): Promise<Timing> {
  const stamps = device.features.has("timestamp-query") ? timestampQueries(device) : null;
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass(stamps ? { timestampWrites: stamps.writes } : {});
  stepper(pass, steps);
  pass.end();
  stamps?.resolve(encoder);
  const wall = await submitAndWait(device, encoder);
  return { reps: steps, wall, gpu: stamps ? await stamps.read() : null };
}

/** Field set 0 (H then E, 6N floats), read back. */
async function readFields(device: GPUDevice, g: Grid, b: Buffers): Promise<Float32Array> {
  const bytes = 12 * cellsOf(g);
  const out = device.createBuffer({
    size: 2 * bytes,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const encoder = device.createCommandEncoder();
  let at = 0;
  for (const buffer of [...b.h[0]!, ...b.e[0]!]) {
    encoder.copyBufferToBuffer(buffer, 0, out, at, buffer.size);
    at += buffer.size;
  }
  device.queue.submit([encoder.finish()]);
  await out.mapAsync(GPUMapMode.READ);
  const values = new Float32Array(out.getMappedRange().slice(0));
  out.destroy();
  return values;
}

/**
 * The fused shapes against the two-pass scheme on a small grid whose edges no shape divides:
 * the largest difference after 20 steps, relative to the largest value. Throws past 1e-5.
 */
async function checkFused(device: GPUDevice, shapes: Shape[]): Promise<number> {
  const g = { nx: 45, ny: 19, nz: 37 };
  const reference = await allocate(device, g, 1, "packed");
  const before = await readFields(device, g, reference);
  await runSteps(device, await validated(device, () => twoPass(device, g, reference)), 20);
  const want = await readFields(device, g, reference);
  const peak = want.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  const moved = want.reduce((m, v, q) => Math.max(m, Math.abs(v - before[q]!)), 0) / peak;
  if (!(moved > 0.01)) throw new Error(`the two-pass kernels left the fields as they were`);
  let worst = 0;
  for (const s of shapes) {
    const b = await allocate(device, g, 2, s.layout);
    await runSteps(device, await validated(device, () => fused(device, g, b, s)), 20);
    const got = await readFields(device, g, b);
    const diff = got.reduce((m, v, q) => Math.max(m, Math.abs(v - want[q]!)), 0) / peak;
    if (!(diff <= 1e-5)) throw new Error(`fused ${shapeName(s)} differs by ${diff} of the peak`);
    worst = Math.max(worst, diff);
    destroy(b);
  }
  return worst;
}

const shapeName = (s: Shape) => `${s.tx}x${s.ty}x${s.kz}${s.layout === "split" ? "s" : ""}`;

/** Mcell/s by wall clock and timestamps, GB/s by `bytes` a cell-update, for one scheme. */
async function measure(device: GPUDevice, g: Grid, stepper: Stepper, bytes: number, name: string) {
  // An even count of steps, so that the fused scheme ends where it began.
  const timing = await timed((reps) => runSteps(device, stepper, 2 * Math.ceil(reps / 2)));
  const rate = (seconds: number) => (cellsOf(g) * timing.reps) / seconds / 1e6;
  const gpu = timing.gpu ? rate(timing.gpu) : null;
  const cells = `${g.nx}³`;
  const fmt = (x: number | null) => (x === null ? "–" : x.toFixed(x >= 100 ? 0 : 2));
  console.log(
    `| ${cells} | ${name} | ${bytes} | ${fmt(rate(timing.wall))} | ${fmt(gpu)} | ` +
      `${fmt((rate(timing.wall) * bytes) / 1000)} |`,
  );
}

function parseShapes(text: string): Shape[] {
  return text.split(",").map((t) => {
    const layout = t.endsWith("s") ? "split" : "packed";
    const [tx, ty, kz] = t.replace(/s$/, "").split("x").map(Number);
    if (!tx || !ty || !kz) throw new Error(`bad fused shape "${t}"`);
    return { tx, ty, kz, layout };
  });
}

/** The shapes whose workgroups the device allows (llvmpipe's compatibility mode: 128). */
function allowedShapes(device: GPUDevice, shapes: Shape[]): Shape[] {
  const l = device.limits;
  const fits = (s: Shape) =>
    (s.layout === "packed" || l.maxStorageBuffersPerShaderStage >= 14) &&
    s.tx * s.ty <= l.maxComputeInvocationsPerWorkgroup &&
    s.tx <= l.maxComputeWorkgroupSizeX &&
    s.ty <= l.maxComputeWorkgroupSizeY;
  for (const s of shapes.filter((x) => !fits(x))) {
    console.log(`fused ${shapeName(s)}: more threads or buffers than the device allows; left out`);
  }
  return shapes.filter(fits);
}

/** Opens the adapter's device with as many threads a workgroup and buffers a shader as it has. */
async function openProbeDevice() {
  const found = await findGpuAdapter(true);
  if (!found.adapter) throw new Error(`no WebGPU adapter: ${found.reason}`);
  const l = found.adapter.limits;
  console.log(
    `Adapter: ${found.adapter.report.device} (${found.adapter.report.software ? "software" : "hardware"}): ` +
      `${l.maxStorageBuffersPerShaderStage} storage buffers a shader, ` +
      `${l.maxComputeInvocationsPerWorkgroup} threads and ${l.maxComputeWorkgroupStorageSize} B ` +
      `of workgroup memory a workgroup, ${l.maxStorageBufferBindingSize} B a binding.`,
  );
  return found.adapter.openDevice(["timestamp-query"], {
    maxStorageBuffersPerShaderStage: Math.min(16, l.maxStorageBuffersPerShaderStage),
    maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
    maxComputeWorkgroupSizeX: Math.min(1024, l.maxComputeInvocationsPerWorkgroup),
    maxComputeWorkgroupSizeY: Math.min(1024, l.maxComputeInvocationsPerWorkgroup),
  });
}

/** Each grid: the two-pass scheme, then each fused shape, on field sets of their layout. */
async function measureGrid(device: GPUDevice, n: number, shapes: Shape[]): Promise<void> {
  const g = { nx: n, ny: n, nz: n };
  if (12 * cellsOf(g) > device.limits.maxStorageBufferBindingSize) {
    console.log(`| ${n}³ | a field set is more than a binding holds here | | | | |`);
    return;
  }
  const buffers = new Map<Layout, Buffers>();
  const of = async (layout: Layout) => {
    if (!buffers.has(layout)) {
      buffers.set(layout, await validated(device, () => allocate(device, g, 2, layout)));
    }
    return buffers.get(layout)!;
  };
  const packed = await of("packed");
  await measure(
    device,
    g,
    await validated(device, () => twoPass(device, g, packed)),
    73,
    "two-pass",
  );
  for (const s of shapes) {
    const b = await of(s.layout);
    const stepper = await validated(device, () => fused(device, g, b, s));
    await measure(device, g, stepper, 49, `fused ${shapeName(s)}`);
  }
  buffers.forEach(destroy);
}

async function main(): Promise<void> {
  const edges = (process.argv[2] ?? "128,200,500").split(",").map(Number);
  let shapes = parseShapes(process.env.BENCH_FUSED_SHAPES ?? DEFAULT_SHAPES);
  const device = await openProbeDevice();
  shapes = allowedShapes(device, shapes);
  const worst = await checkFused(device, shapes);
  console.log(
    `Fused against two-pass after 20 steps on 45 × 19 × 37: ${worst.toExponential(1)} of the peak.\n`,
  );
  console.log(
    "| grid | scheme | B/cell-update | Mcell/s (wall) | Mcell/s (timestamps) | GB/s (wall) |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const n of edges) await measureGrid(device, n, shapes);
  device.destroy();
}

await main();
