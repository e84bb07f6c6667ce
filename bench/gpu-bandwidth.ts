/**
 * The memory bandwidth of the webgpu backend's adapter, for `npm run bench:solver`'s WebGPU
 * section (run in its own process by bench/solver-case.ts, `{"kind":"gpu-bandwidth"}`).
 *
 * Two storage buffers as large as the device allows, up to 1 GiB each; one is copied into the
 * other, many times over, by a WGSL kernel (vec4<f32> elements, a few per thread, the same
 * kind of dispatch as the solver's shaders) and by `copyBufferToBuffer` (the driver's own
 * copy). Timed by wall clock from the submit to `onSubmittedWorkDone`, and, where the adapter
 * has 'timestamp-query', by timestamps around the kernel's compute pass. GB/s counts the bytes
 * read and the bytes written. A few elements of the copy are read back and checked, so that a
 * dispatch that did not run cannot pass for a fast one.
 */
import { findGpuAdapter } from "../src/solver/webgpu/device.js";

/** What `measureGpuBandwidth` returns (GB/s: 10⁹ bytes read + written per second). */
export interface GpuBandwidthFigures {
  /** The WGSL copy kernel, by wall clock. */
  copyKernelGBs: number;
  /** `copyBufferToBuffer`, by wall clock. */
  copyBufferGBs: number;
  /** The WGSL copy kernel by timestamp queries; null without 'timestamp-query'. */
  timestampGBs: number | null;
  /** Bytes of each of the two buffers. */
  bytes: number;
  /** Whether the adapter is a software one (figures for correctness only). */
  software: boolean;
}

/** Options for trying the probe on a small device (defaults: the device's limits). */
export interface GpuBandwidthOptions {
  /** At most this many bytes per buffer (default and upper bound: 1 GiB). */
  maxBytes?: number;
  /** Fold the dispatch into 2-D past this many workgroups (to try the fold on any device). */
  maxGroupsPerDimension?: number;
}

const MAX_BYTES = 2 ** 30;
/** vec4<f32> elements each thread copies (loads first, then stores: more loads in flight). */
const PER_THREAD = 4;
/** Wall-clock seconds each timed run aims at (about 1500 copies of 1 GiB on an H200). */
const TARGET_SECONDS = 0.75;
const MAX_REPS = 20_000;
/** The pattern the source buffer is filled with, repeated (non-zero, so nothing compresses). */
const PATTERN_FLOATS = 2 ** 20;

interface Probe {
  device: GPUDevice;
  src: GPUBuffer;
  dst: GPUBuffer;
  bytes: number;
  pattern: Float32Array;
}

/** Measures the copy kernel and `copyBufferToBuffer` on the adapter `webgpu` would use. */
export async function measureGpuBandwidth(
  options: GpuBandwidthOptions = {},
): Promise<GpuBandwidthFigures> {
  const found = await findGpuAdapter(true);
  if (!found.adapter) throw new Error(`no WebGPU adapter: ${found.reason}`);
  const device = await found.adapter.openDevice(["timestamp-query"]);
  try {
    const probe = allocate(device, Math.min(MAX_BYTES, options.maxBytes ?? MAX_BYTES));
    const kernel = copyKernel(probe, options.maxGroupsPerDimension);
    const kernelTiming = await timed((reps) => kernel(reps));
    await checkCopy(probe);
    const bufferTiming = await timed((reps) => copyBuffers(probe, reps));
    const gbs = (t: { reps: number }, seconds: number) =>
      (2 * probe.bytes * t.reps) / seconds / 1e9;
    return {
      copyKernelGBs: gbs(kernelTiming, kernelTiming.wall),
      copyBufferGBs: gbs(bufferTiming, bufferTiming.wall),
      timestampGBs: kernelTiming.gpu ? gbs(kernelTiming, kernelTiming.gpu) : null,
      bytes: probe.bytes,
      software: found.adapter.report.software,
    };
  } finally {
    device.destroy();
  }
}

/**
 * Two buffers of the largest size the device binds (at most `maxBytes`), a whole number of
 * workgroups' worth of elements; the source filled with the pattern.
 */
function allocate(device: GPUDevice, maxBytes: number): Probe {
  const l = device.limits;
  const quantum = 16 * PER_THREAD * 256;
  const limit = Math.min(l.maxStorageBufferBindingSize, l.maxBufferSize, maxBytes);
  const bytes = Math.floor(limit / quantum) * quantum;
  if (bytes === 0) throw new Error(`the device binds only ${limit} bytes per buffer`);
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const src = device.createBuffer({ size: bytes, usage });
  const dst = device.createBuffer({ size: bytes, usage });
  // Pseudo-random values from a fixed seed (a linear congruential generator).
  const pattern = new Float32Array(PATTERN_FLOATS);
  let seed = 12345;
  for (let i = 0; i < pattern.length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    pattern[i] = seed / 2 ** 32 + 0.5;
  }
  for (let offset = 0; offset < bytes; offset += pattern.byteLength) {
    const floats = Math.min(pattern.length, (bytes - offset) / 4);
    device.queue.writeBuffer(src, offset, pattern, 0, floats);
  }
  return { device, src, dst, bytes, pattern };
}

/** A dispatch of `groups` workgroups as (x, y): 2-D once x would pass `maxPerDimension`. */
export function foldGroups(groups: number, maxPerDimension: number): [number, number] {
  if (groups <= maxPerDimension) return [groups, 1];
  const y = Math.ceil(groups / maxPerDimension);
  return [Math.ceil(groups / y), y];
}

/**
 * The WGSL copy kernel: thread t of `stride` threads copies elements t, t + stride, …
 * (PER_THREAD of them), so that neighbouring threads touch neighbouring elements. Returns a
 * function that runs it `reps` times in one compute pass (timestamps around it when the
 * device has 'timestamp-query').
 */
function copyKernel(probe: Probe, maxGroupsPerDimension?: number) {
  const { device } = probe;
  const l = device.limits;
  const size =
    l.maxComputeInvocationsPerWorkgroup >= 256 && l.maxComputeWorkgroupSizeX >= 256 ? 256 : 128;
  const stride = probe.bytes / 16 / PER_THREAD;
  const perDimension = Math.min(
    l.maxComputeWorkgroupsPerDimension,
    maxGroupsPerDimension ?? Infinity,
  );
  const [x, y] = foldGroups(stride / size, perDimension);
  const offsets = Array.from({ length: PER_THREAD }, (_, k) => k * stride);
  const code = `
@group(0) @binding(0) var<storage, read> src: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>;
@compute @workgroup_size(${size})
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) local: u32) {
  let t = (group.y * ${x}u + group.x) * ${size}u + local;
  if (t >= ${stride}u) { return; }
  ${offsets.map((o, k) => `let v${k} = src[t + ${o}u];`).join("\n  ")}
  ${offsets.map((o, k) => `dst[t + ${o}u] = v${k};`).join("\n  ")}
}`;
  const pipeline = device.createComputePipeline({
    layout: "auto",
    compute: { module: device.createShaderModule({ code }), entryPoint: "main" },
  });
  const group = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: probe.src } },
      { binding: 1, resource: { buffer: probe.dst } },
    ],
  });
  const timestamps = device.features.has("timestamp-query") ? timestampQueries(device) : null;
  return async (reps: number): Promise<Timing> => {
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass(timestamps ? { timestampWrites: timestamps.writes } : {});
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    for (let r = 0; r < reps; r++) pass.dispatchWorkgroups(x, y);
    pass.end();
    timestamps?.resolve(encoder);
    const wall = await submitAndWait(device, encoder);
    return { reps, wall, gpu: timestamps ? await timestamps.read() : null };
  };
}

/** A run's seconds: wall clock, and the GPU's by timestamps where there are any. */
export interface Timing {
  reps: number;
  wall: number;
  gpu: number | null;
}

/** `copyBufferToBuffer` of the whole source into the destination, `reps` times. */
async function copyBuffers(probe: Probe, reps: number): Promise<Timing> {
  const encoder = probe.device.createCommandEncoder();
  for (let r = 0; r < reps; r++)
    encoder.copyBufferToBuffer(probe.src, 0, probe.dst, 0, probe.bytes);
  return { reps, wall: await submitAndWait(probe.device, encoder), gpu: null };
}

/** Submits the encoder's commands; the seconds until the queue has done them. */
export async function submitAndWait(
  device: GPUDevice,
  encoder: GPUCommandEncoder,
): Promise<number> {
  const commands = encoder.finish();
  const start = performance.now();
  device.queue.submit([commands]);
  await device.queue.onSubmittedWorkDone();
  return (performance.now() - start) / 1000;
}

/**
 * A warm-up (pipeline creation, the destination's first touch), a short run to estimate one
 * repetition, then the timed run of about TARGET_SECONDS.
 */
export async function timed(run: (reps: number) => Promise<Timing>): Promise<Timing> {
  await run(2);
  const estimate = await run(4);
  const reps = Math.max(4, Math.min(MAX_REPS, Math.ceil((4 * TARGET_SECONDS) / estimate.wall)));
  return run(reps);
}

/** Timestamps at the beginning and end of a compute pass, resolved to nanoseconds. */
export function timestampQueries(device: GPUDevice) {
  const querySet = device.createQuerySet({ type: "timestamp", count: 2 });
  const resolved = device.createBuffer({
    size: 16,
    usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
  });
  const readBack = device.createBuffer({
    size: 16,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  return {
    writes: { querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 },
    resolve(encoder: GPUCommandEncoder) {
      encoder.resolveQuerySet(querySet, 0, 2, resolved, 0);
      encoder.copyBufferToBuffer(resolved, 0, readBack, 0, 16);
    },
    /** The pass's seconds; null where the timestamps make no sense (none written). */
    async read(): Promise<number | null> {
      await readBack.mapAsync(GPUMapMode.READ);
      const [begin, end] = new BigUint64Array(readBack.getMappedRange().slice(0));
      readBack.unmap();
      const ns = Number(end! - begin!);
      return ns > 0 ? ns / 1e9 : null;
    },
  };
}

/**
 * Reads back the first and last element each thread's k-th copy writes (the ends of the
 * dispatch, the far corner of a 2-D fold included) and a few in between, and compares them
 * with the pattern: throws if the kernel skipped any.
 */
async function checkCopy(probe: Probe): Promise<void> {
  const { device, dst, bytes, pattern } = probe;
  const elements = bytes / 16;
  const stride = elements / PER_THREAD;
  const picks = new Set<number>();
  for (let k = 0; k < PER_THREAD; k++) {
    for (const t of [0, 1, Math.floor(stride / 3), Math.floor(stride / 2) + 7, stride - 1]) {
      picks.add(k * stride + t);
    }
  }
  const indices = [...picks];
  const readBack = device.createBuffer({
    size: 16 * indices.length,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const encoder = device.createCommandEncoder();
  indices.forEach((e, i) => encoder.copyBufferToBuffer(dst, 16 * e, readBack, 16 * i, 16));
  device.queue.submit([encoder.finish()]);
  await readBack.mapAsync(GPUMapMode.READ);
  const got = new Float32Array(readBack.getMappedRange().slice(0));
  readBack.unmap();
  readBack.destroy();
  indices.forEach((e, i) => {
    for (let c = 0; c < 4; c++) {
      const want = pattern[(4 * e + c) % pattern.length]!;
      if (got[4 * i + c] !== want) {
        throw new Error(`the copy kernel left element ${e} (component ${c}) uncopied`);
      }
    }
  });
}
