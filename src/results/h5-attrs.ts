/**
 * Attributes of the result file's groups and datasets (hdf5.ts and the groups it delegates to):
 * every numeric attribute with an explicit dtype, since whole-number JS values would become
 * int32 and overflow silently; CF `units` and `long_name` on every variable.
 */
import type h5wasm from "h5wasm/node";

export type H5Group = InstanceType<typeof h5wasm.Group>;
/** A group or a dataset: anything that carries attributes. */
export type HasAttrs = Pick<H5Group, "create_attribute">;

export function f64(group: HasAttrs, name: string, value: number | number[]): void {
  const data = Array.isArray(value) ? new Float64Array(value) : new Float64Array([value]);
  group.create_attribute(name, data, Array.isArray(value) ? [value.length] : null, "<d");
}

export function i64(group: HasAttrs, name: string, value: number): void {
  group.create_attribute(name, BigInt64Array.from([BigInt(Math.round(value))]), null, "<q");
}

export function str(group: HasAttrs, name: string, value: string): void {
  group.create_attribute(name, value);
}

/** CF attributes of a variable: its unit and what it is. */
export function describe(
  target: HasAttrs,
  units: string,
  longName: string,
  extra: Record<string, string> = {},
): void {
  str(target, "units", units);
  str(target, "long_name", longName);
  for (const [name, value] of Object.entries(extra)) str(target, name, value);
}
