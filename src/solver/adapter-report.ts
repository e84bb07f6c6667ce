/**
 * The adapter a `webgpu` backend runs on, as reports name it. A leaf (no imports), so the
 * public types (types.ts) and the backend interface name it without importing the GPU probe
 * (device.ts).
 */
export interface GpuAdapterReport {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /** Dawn backend: "default" (Vulkan, Metal, D3D12) or "opengles" (compatibility mode). */
  dawnBackend: "default" | "opengles";
  /** A CPU implementation (llvmpipe, lavapipe, SwiftShader, WARP): correctness only. */
  software: boolean;
}
