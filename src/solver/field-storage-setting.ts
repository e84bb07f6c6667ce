/**
 * The choice of how a backend stores the fields: float32 (every backend) or float16 (the
 * webgpu backend, webgpu/field-storage.ts, which says what it costs in accuracy). A run picks
 * it by StepperOptions.fieldStorage; a worker by EMSIM_WEBGPU_FIELD_STORAGE.
 */
export type FieldStorage = "float32" | "float16";

/** The environment variable that picks a worker's default. */
export const FIELD_STORAGE_ENV = "EMSIM_WEBGPU_FIELD_STORAGE";

/** The storage EMSIM_WEBGPU_FIELD_STORAGE names (float32 when unset); an unknown name throws. */
export function fieldStorageFromEnv(value = process.env[FIELD_STORAGE_ENV]): FieldStorage {
  const v = (value ?? "").trim();
  if (v === "" || v === "float32") return "float32";
  if (v === "float16") return "float16";
  throw new Error(`${FIELD_STORAGE_ENV} must be float32 or float16, not "${v}"`);
}
