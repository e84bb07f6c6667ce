/**
 * The request's defaults are data beside its schema (`DEFAULTS`): applyDefaults fills in those
 * values, each lies within its own field's bounds, and the descriptions say them.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULTS, DomainSchema, type SimulationRequest } from "./simulation.js";
import { applyDefaults, validateRequestSchema } from "./validate.js";

const bare: SimulationRequest = {
  solver: "fdtd",
  domain: {
    size: [1e-6, 1e-6, 2e-6],
    resolution: 50e-9,
    mesh_overrides: [{ center: [0, 0, 0], size: [0, 0, 0.2e-6], resolution: 10e-9 }],
  },
  source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [0, 0, 1] },
  structures: [
    {
      type: "polyslab",
      vertices: [
        [0, 0],
        [1e-7, 0],
        [0, 1e-7],
      ],
      z_min: 0,
      z_max: 1e-7,
      material: "Si",
    },
  ],
  monitors: [{ name: "m", monitor_type: "field", center: [0, 0, 0], size: [0, 0, 0] }],
};

test("applyDefaults fills in the schema's defaults, and each is within its field's bounds", () => {
  const spec = applyDefaults(bare);
  const { domain, source, structures, monitors, fdtd_settings } = spec;
  assert.deepEqual(
    {
      boundary_conditions: domain.boundary_conditions,
      pml_layers: domain.pml_layers,
      max_step_ratio: domain.max_step_ratio,
    },
    DEFAULTS.domain,
  );
  assert.ok(source.source_type === "plane_wave");
  assert.deepEqual(
    { polarization: source.polarization, amplitude: source.amplitude },
    DEFAULTS.plane_wave,
  );
  assert.deepEqual(structures[0], { ...bare.structures?.[0], ...DEFAULTS.polyslab });
  assert.deepEqual(monitors[0], { ...bare.monitors?.[0], ...DEFAULTS.field_monitor });
  assert.deepEqual(fdtd_settings, DEFAULTS.fdtd_settings);
  // The filled-in spec is itself a valid request: no default lies outside its field's bounds.
  assert.ok(validateRequestSchema(spec), JSON.stringify(validateRequestSchema.errors));
});

test("a field's description says the default applyDefaults fills in", () => {
  const said = (field: keyof typeof DomainSchema.properties) =>
    (DomainSchema.properties[field] as { description?: string }).description ?? "";
  assert.match(said("max_step_ratio"), /\. Default 1\.2\.$/);
  assert.equal(DEFAULTS.domain.max_step_ratio, 1.2);
  assert.match(said("pml_layers"), new RegExp(`Default ${DEFAULTS.domain.pml_layers}\\.$`));
});
