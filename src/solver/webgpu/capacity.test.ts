/**
 * The largest grids the webgpu backend takes on an adapter, from its limits alone (no GPU
 * needed): the bound is one storage binding (2 GiB − 4 B on an H200 with NVIDIA's driver), and
 * the largest buffer is a field component's unless the material indices sit in one buffer
 * (material-index.ts: three where the adapter binds ten storage buffers a shader).
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { largestCube, type GridSize } from "../backend.js";
import { FIELD_STORAGE_ENV } from "../field-storage-setting.js";
import { YeeLayout } from "../grid.js";
import type { GpuAdapterHandle } from "./device.js";
import { webgpuBackend } from "./engine.js";

/** An adapter with an H200's limits as Dawn reports them, binding `storageBuffers` a shader. */
function h200(storageBuffers: number): GpuAdapterHandle {
  return {
    report: {
      vendor: "nvidia",
      architecture: "",
      device: `an H200 binding ${storageBuffers} storage buffers`,
      description: "limits only",
      dawnBackend: "default",
      software: false,
    },
    limits: {
      maxBufferSize: 2 ** 40,
      maxStorageBufferBindingSize: 2 ** 31 - 4,
      maxStorageBuffersPerShaderStage: storageBuffers,
      minUniformBufferOffsetAlignment: 256,
      maxComputeWorkgroupsPerDimension: 65535,
      maxComputeInvocationsPerWorkgroup: 1024,
      maxComputeWorkgroupStorageSize: 49152,
    },
    openDevice: () => Promise.reject(new Error("a test adapter opens no device")),
  };
}

/** N³ cells with 12 PML layers a face, no monitors. */
function cube(n: number): GridSize {
  return {
    layout: new YeeLayout([n, n, n], ["pml", "pml", "pml"]),
    pml: [0, 1, 2].map(() => ({ lo: 12, hi: 12 })),
    complex: false,
  };
}

describe("the webgpu backend's largest grid on an H200's limits", () => {
  after(() => delete process.env[FIELD_STORAGE_ENV]);

  it("float32: 810³ with the indices in three bindings, 708³ in one", () => {
    const fits = (handle: GpuAdapterHandle, n: number) => {
      const m = webgpuBackend(handle).memory(cube(n));
      return m.bytes <= m.limitBytes;
    };
    // A float32 component, 4 B of each of the (n + 2)³ padded cells, ≤ 2³¹ − 4 B: n = 810.
    assert.ok(fits(h200(16), 810) && !fits(h200(16), 811));
    assert.ok(webgpuBackend(h200(16)).memory(cube(810)).what.includes("three buffers"));
    assert.equal(largestCube(webgpuBackend(h200(16)), false), 810);
    // One buffer of 16-bit indices, 6 B per padded cell (a word holds two): n = 708.
    assert.ok(fits(h200(8), 708) && !fits(h200(8), 709));
  });

  it("float16 storage: a 1000³ job fits where the indices have three bindings", () => {
    process.env[FIELD_STORAGE_ENV] = "float16";
    const m = webgpuBackend(h200(16)).memory(cube(1000));
    assert.ok(m.bytes <= m.limitBytes, `${m.bytes} B of ${m.what}`);
    const one = webgpuBackend(h200(8)).memory(cube(1000));
    assert.ok(one.bytes > one.limitBytes, "one buffer of indices is 6 GB");
    process.env[FIELD_STORAGE_ENV] = "float32";
    const f32 = webgpuBackend(h200(16)).memory(cube(1000));
    assert.ok(f32.bytes > f32.limitBytes, "a float32 component of 1000³ is 4 GB");
  });
});
