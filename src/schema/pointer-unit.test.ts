import { test } from "node:test";
import assert from "node:assert/strict";
import { unitAt } from "./pointer-unit.js";
import { SimulationRequestSchema } from "./simulation.js";
import { ModesRequestSchema } from "./modes.js";

test("a length a pointer sets is in metres, wherever the schema keeps it", () => {
  for (const pointer of [
    "/domain/resolution",
    "/domain/size/2",
    "/structures/1/size/0",
    "/structures/0/center/1",
    "/structures/3/radius",
    "/structures/2/vertices/4/1",
    "/structures/2/z_max",
    "/source/wavelength",
    "/source/waist_radius",
    "/source/mode_spec/bend_radius",
    "/monitors/0/wavelengths/3",
    "/monitors/1/wavelengths/start",
    "/domain/mesh_overrides/0/resolution",
    "/domain/mesh_overrides/0/resolution/2",
  ]) {
    assert.equal(unitAt(pointer), "m", pointer);
  }
});

test("a unitless value, a string or no place at all has no unit", () => {
  for (const pointer of [
    "/materials/core/permittivity",
    "/source/amplitude",
    "/source/polarization",
    "/structures/0/material",
    "/source/mode_spec/target_neff",
    "/fdtd_settings/time_steps",
    "/nothing/here",
    "/domain/size/3",
    "",
    "domain/size/0",
  ]) {
    assert.equal(unitAt(pointer), null, pointer);
  }
});

/** Every number schema under `node`, with the description nearest above it. */
function numbers(node: unknown, description = "", path = ""): [string, object, string][] {
  if (typeof node !== "object" || node === null) return [];
  const n = node as Record<string, unknown>;
  const here = typeof n.description === "string" ? n.description : description;
  const own: [string, object, string][] = n.type === "number" ? [[path, n, here]] : [];
  return own.concat(
    Object.entries(n)
      .filter(([k]) => k !== "examples" && k !== "default" && k !== "discriminator")
      .flatMap(([k, v]) => numbers(v, here, `${path}/${k}`)),
  );
}

test("every number whose description says metres carries the unit", () => {
  for (const schema of [SimulationRequestSchema, ModesRequestSchema]) {
    const lengths = numbers(schema).filter(
      ([, , d]) => /\bmetres\b|\bMetres\b/.test(d) && !/nanometres/.test(d),
    );
    assert.ok(lengths.length > 20, `${lengths.length} lengths found: the walk is broken`);
    const missing = lengths
      .filter(([, n]) => (n as Record<string, unknown>)["x-unit"] !== "m")
      .map(([p, , d]) => `${p}: ${d.slice(0, 60)}`);
    assert.deepEqual(missing, []);
  }
});
