/**
 * Finding a WebGPU adapter for the `webgpu` backend (npm `webgpu`: Google's Dawn for Node).
 *
 * Two tries, once per process (the result is cached):
 * 1. Dawn's default backends (Vulkan on Linux, Metal, D3D12) at full feature level, asking for
 *    the high-performance adapter: a real GPU where there is one.
 * 2. Only where software adapters are allowed: Dawn's compatibility mode over OpenGL ES on
 *    Mesa with a surfaceless EGL display. On a machine without a GPU that is llvmpipe, Mesa's
 *    CPU rasteriser (Debian 12's lavapipe is refused by Dawn's Vulkan backend). It runs the
 *    same WGSL, slowly, which is what the tests need.
 *
 * A software adapter is recognised by `isFallbackAdapter` or by its name (Dawn reports
 * llvmpipe over OpenGL ES with isFallbackAdapter false, so the flag alone is not enough);
 * `auto` never chooses one (backends.ts).
 *
 * Dawn frees the native instance when the object `create()` returned is collected, and the
 * adapters and devices made from it then crash the process: the instances live in this
 * module's cache for the life of the process.
 *
 * EMSIM_WEBGPU_TOGGLES (comma-separated Dawn toggle names, e.g.
 * `disable_robustness,skip_validation`) enables those toggles on both tries' instances, and
 * through them on their adapters and devices, to measure what Dawn's safety checks cost.
 */
// The WebGPU globals (GPUDevice, GPUFeatureName) this module's declarations name, for those
// who read them without this project's settings: emsim/client's users (test/client/declarations).
/// <reference types="@webgpu/types" preserve="true" />
import type { create as createGpu } from "webgpu";
import type { GpuAdapterReport } from "../adapter-report.js";

/** The adapter report (adapter-report.ts), re-exported for the probe's importers. */
export type { GpuAdapterReport } from "../adapter-report.js";

/** The adapter limits the backend plans buffers against (bytes, counts). */
export interface GpuLimits {
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
  maxStorageBuffersPerShaderStage: number;
  minUniformBufferOffsetAlignment: number;
  maxComputeWorkgroupsPerDimension: number;
  /** Threads a workgroup may have, and the bytes of workgroup memory it may use. */
  maxComputeInvocationsPerWorkgroup: number;
  maxComputeWorkgroupStorageSize: number;
}

/** An adapter found by `findGpuAdapter`, with the means to open a device on it. */
export interface GpuAdapterHandle {
  report: GpuAdapterReport;
  limits: GpuLimits;
  /**
   * Opens a device with the adapter's buffer limits (one per stepper) and `features`; `raise`
   * asks for more of other limits (benchmarks' probes; each at most the adapter's).
   */
  openDevice(features?: GPUFeatureName[], raise?: Record<string, number>): Promise<GPUDevice>;
}

/** What `findGpuAdapter` found: the adapter, or why there is none. */
export type GpuProbe = { adapter: GpuAdapterHandle } | { adapter: null; reason: string };

const SOFTWARE_NAMES = /llvmpipe|lavapipe|softpipe|swiftshader|software|warp|microsoft basic/i;

/** Storage buffers one shader binds at most (webgpu/shaders.ts): the core WebGPU default. */
export const STORAGE_BUFFERS_NEEDED = 8;

/** The instances `create()` returned: kept for the process's life (see the module comment). */
const instances: GPU[] = [];
const probes = new Map<boolean, Promise<GpuProbe>>();

/**
 * The best adapter on this machine: a hardware one if there is one, else (with
 * `allowSoftware`) a software one; cached per argument for the process's life.
 */
export function findGpuAdapter(allowSoftware: boolean): Promise<GpuProbe> {
  let probe = probes.get(allowSoftware);
  if (!probe) {
    probe = probeAdapter(allowSoftware);
    probes.set(allowSoftware, probe);
  }
  return probe;
}

/**
 * Always disabled: Dawn's rounding of timestamp queries to 65.536 µs, which would make the
 * per-pass times of profiled runs (webgpu/pass-profiler.ts) sums of rounded-down values.
 */
const DISABLED_TOGGLES = "disable-dawn-features=timestamp_quantization";

/**
 * The `create()` flags: the one that disables DISABLED_TOGGLES, and one that enables the
 * Dawn toggles named in `list` (default: EMSIM_WEBGPU_TOGGLES, comma-separated) unless it is
 * empty or unset.
 */
export function dawnToggleFlags(list = process.env.EMSIM_WEBGPU_TOGGLES): string[] {
  const names = (list ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  return names.length > 0
    ? [DISABLED_TOGGLES, `enable-dawn-features=${names.join(",")}`]
    : [DISABLED_TOGGLES];
}

async function probeAdapter(allowSoftware: boolean): Promise<GpuProbe> {
  let dawn: { create: typeof createGpu; globals: object };
  try {
    dawn = (await import("webgpu")) as { create: typeof createGpu; globals: object };
  } catch (err) {
    return { adapter: null, reason: `the npm package webgpu (Dawn) did not load: ${message(err)}` };
  }
  // Dawn's constants (GPUBufferUsage, GPUMapMode, …) are globals in browsers; the kernels use them.
  for (const [name, value] of Object.entries(dawn.globals)) {
    if (!(name in globalThis)) (globalThis as Record<string, unknown>)[name] = value;
  }
  const tried: string[] = [];
  try {
    const gpu = dawn.create(dawnToggleFlags());
    instances.push(gpu);
    const options: GPURequestAdapterOptions = { powerPreference: "high-performance" };
    const adapter = await gpu.requestAdapter(options);
    if (adapter) {
      const handle = adapterHandle(gpu, options, adapter, "default");
      if (!handle.report.software || allowSoftware) return { adapter: handle };
      tried.push(`the default backends offer only a software adapter (${handle.report.device})`);
    } else {
      tried.push("no adapter on Dawn's default backends (Vulkan, Metal, D3D12)");
    }
  } catch (err) {
    tried.push(`Dawn's default backends failed: ${message(err)}`);
  }
  if (!allowSoftware) return { adapter: null, reason: tried.join("; ") };
  try {
    // Mesa's EGL needs a platform without a window system on a headless machine.
    process.env.EGL_PLATFORM ??= "surfaceless";
    const gpu = dawn.create(["backend=opengles", ...dawnToggleFlags()]);
    instances.push(gpu);
    const options: GPURequestAdapterOptions = { featureLevel: "compatibility" };
    const adapter = await gpu.requestAdapter(options);
    if (adapter) return { adapter: adapterHandle(gpu, options, adapter, "opengles") };
    tried.push(
      "no OpenGL ES adapter (Dawn needs libEGL.so and Mesa's EGL and DRI drivers: Debian's " +
        "libegl-dev, libegl-mesa0, libgl1-mesa-dri)",
    );
  } catch (err) {
    tried.push(`Dawn's OpenGL ES backend failed: ${message(err)}`);
  }
  return { adapter: null, reason: tried.join("; ") };
}

/**
 * The handle of an adapter found with `options`. An adapter opens one device in its life
 * (WebGPU: it is "consumed"), so each device comes from a fresh request with the same options.
 */
function adapterHandle(
  gpu: GPU,
  options: GPURequestAdapterOptions,
  adapter: GPUAdapter,
  dawnBackend: GpuAdapterReport["dawnBackend"],
): GpuAdapterHandle {
  const info = adapter.info;
  const names = `${info.vendor} ${info.architecture} ${info.device} ${info.description}`;
  const fallback =
    (info as { isFallbackAdapter?: boolean }).isFallbackAdapter === true ||
    (adapter as { isFallbackAdapter?: boolean }).isFallbackAdapter === true;
  const report: GpuAdapterReport = {
    vendor: info.vendor,
    architecture: info.architecture,
    device: info.device,
    description: info.description,
    dawnBackend,
    software: fallback || SOFTWARE_NAMES.test(names),
  };
  const l = adapter.limits;
  const limits: GpuLimits = {
    maxBufferSize: l.maxBufferSize,
    maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
    maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage,
    minUniformBufferOffsetAlignment: l.minUniformBufferOffsetAlignment,
    maxComputeWorkgroupsPerDimension: l.maxComputeWorkgroupsPerDimension,
    maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
    maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize,
  };
  return {
    report,
    limits,
    async openDevice(features: GPUFeatureName[] = [], raise: Record<string, number> = {}) {
      if (limits.maxStorageBuffersPerShaderStage < STORAGE_BUFFERS_NEEDED) {
        throw new Error(
          `the GPU adapter binds ${limits.maxStorageBuffersPerShaderStage} storage buffers per ` +
            `shader; the kernels need ${STORAGE_BUFFERS_NEEDED}`,
        );
      }
      const fresh = await gpu.requestAdapter(options);
      if (!fresh) throw new Error(`the GPU adapter ${describeAdapter(report)} is gone`);
      const device = await fresh.requestDevice({
        requiredFeatures: features.filter((f) => fresh.features.has(f)),
        requiredLimits: {
          maxBufferSize: limits.maxBufferSize,
          maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
          maxStorageBuffersPerShaderStage: STORAGE_BUFFERS_NEEDED,
          ...raise,
        },
      });
      return device;
    },
  };
}

/** One line naming an adapter, for logs and reports. */
export function describeAdapter(report: GpuAdapterReport): string {
  const name =
    [report.vendor, report.architecture, report.device].filter((s) => s).join(" ") || "unknown";
  const detail = report.description ? ` (${report.description})` : "";
  return `${name}${detail}${report.software ? ", software adapter" : ""}`;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
