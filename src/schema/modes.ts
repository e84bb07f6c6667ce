/**
 * The mode solver's request (POST /v1/modes, DESIGN §10): a simulation's `domain`,
 * `structures` and `materials` (the same schemas, so a plane is painted exactly as a run of
 * the same request would be), the `plane`, the `wavelengths` and the `mode_spec`; and its
 * validation: the schema, the defaults, then the solver's checks (checks/mode-plane.ts).
 */
import Type, { type Static } from "typebox";
import type { FieldError } from "../errors.js";
import {
  MAX_MODE_FIELD_CELLS,
  MAX_MODE_PLANE_CELLS,
  MAX_MODE_WAVELENGTHS,
  checkModesOf,
  type PlaneModesRequest,
  type Vec3,
} from "../solver/index.js";
import { formatAjvErrors } from "./ajv-errors.js";
import { compileBounded } from "./bounded.js";
import {
  DomainSchema,
  MAX_STRUCTURES,
  MaterialsSchema,
  StructureSchema,
  ModeSpecSchema,
  WavelengthRangeSchema,
  coordinates3,
  extents3,
  length,
  withDefault,
  type SimulationRequest,
} from "./simulation.js";
import { applyDefaults, modeSpecWithDefaults } from "./validate.js";

export const ModesRequestSchema = Type.Object(
  {
    domain: DomainSchema,
    structures: Type.Optional(Type.Array(StructureSchema, { maxItems: MAX_STRUCTURES })),
    materials: Type.Optional(MaterialsSchema),
    plane: Type.Object(
      {
        center: coordinates3("Centre in metres."),
        size: extents3(
          "Extent in metres, zero along exactly one axis (the normal). Its transverse axes are (y, z) for an x-normal plane, (x, z) for y, (x, y) for z.",
          { minimum: 0 },
        ),
      },
      {
        additionalProperties: false,
        description: `The cross-section to solve, at most ${MAX_MODE_PLANE_CELLS} grid cells.`,
      },
    ),
    wavelengths: Type.Union(
      [
        Type.Array(length("Vacuum wavelength in metres."), {
          minItems: 1,
          maxItems: MAX_MODE_WAVELENGTHS,
          uniqueItems: true,
        }),
        WavelengthRangeSchema,
      ],
      {
        description: `Vacuum wavelengths (metres), a list (each once) or {start, stop, points}; at most ${MAX_MODE_WAVELENGTHS}.`,
      },
    ),
    mode_spec: Type.Optional(ModeSpecSchema),
    group_index: Type.Optional(
      Type.Boolean({ description: withDefault("Also each mode's group index.", "false") }),
    ),
    include_fields: Type.Optional(
      Type.Boolean({
        description: withDefault(
          `Also each mode's six field components at the plane's cell centres (V/m and A/m, 1 W through the plane); at most ${MAX_MODE_FIELD_CELLS} cells × modes × wavelengths.`,
          "false",
        ),
      }),
    ),
  },
  {
    additionalProperties: false,
    $id: "ModesRequest",
    title: "ModesRequest",
    description:
      "A cross-section of a simulation's domain and structures to solve for its waveguide modes. Lengths and wavelengths in metres.",
  },
);

export type ModesRequest = Static<typeof ModesRequestSchema>;

export const validateModesSchema = compileBounded<ModesRequest>(ModesRequestSchema);

export type ModesValidation =
  | { ok: true; request: PlaneModesRequest; includeFields: boolean }
  | { ok: false; errors: FieldError[] };

/**
 * The request with a simulation's defaults: its domain, structures and materials as a
 * simulation request's (validate.ts applyDefaults), and its mode_spec as a mode source's, so
 * that every field of the one ModeSpecSchema (bend_radius and bend_axis too) reaches the
 * solver and its checks (checks/mode-plane.ts, checkBend) as it would from a mode source.
 */
function withDefaults(body: ModesRequest): PlaneModesRequest {
  // The domain, structures and materials as a simulation request's (validate.ts applyDefaults).
  const asSimulation = {
    solver: "fdtd",
    domain: body.domain,
    structures: body.structures,
    materials: body.materials,
    source: { source_type: "plane_wave", wavelength: 1e-6, direction: [0, 0, 1] },
  } as SimulationRequest;
  const spec = applyDefaults(asSimulation);
  return {
    domain: spec.domain,
    structures: spec.structures,
    ...(spec.materials ? { materials: spec.materials } : {}),
    plane: { center: [...body.plane.center] as Vec3, size: [...body.plane.size] as Vec3 },
    wavelengths: Array.isArray(body.wavelengths) ? [...body.wavelengths] : { ...body.wavelengths },
    mode_spec: modeSpecWithDefaults(body.mode_spec),
    group_index: body.group_index ?? false,
  };
}

/** Schema, defaults and the solver's checks; errors name the field. */
export function validateModesRequest(body: unknown): ModesValidation {
  if (!validateModesSchema(body)) {
    return { ok: false, errors: formatAjvErrors(validateModesSchema.errors) };
  }
  if ((body.structures ?? []).some((s) => s.type === "gds")) {
    // The HTTP layer resolves gds structures first; one left here was not resolved.
    return {
      ok: false,
      errors: [{ path: "structures", message: "gds structures must be resolved first" }],
    };
  }
  const request = withDefaults(body);
  const includeFields = body.include_fields ?? false;
  const problems = checkModesOf(request, { includeFields });
  if (problems.length > 0) return { ok: false, errors: problems };
  return { ok: true, request, includeFields };
}

const complexArray = Type.Object(
  { re: Type.Array(Type.Number()), im: Type.Array(Type.Number()) },
  { additionalProperties: false },
);

export const ModeResultSchema = Type.Object(
  {
    wavelength_m: Type.Number(),
    mode_index: Type.Integer({
      description: "The same mode at every wavelength (tracked by overlap).",
    }),
    n_eff: Type.Number({ description: "Effective index, Re." }),
    k_eff: Type.Number({
      description:
        "Im n_eff: > 0 for a mode that decays as it propagates (loss, leakage, bend radiation).",
    }),
    te_fraction: Type.Number({
      description: "∫|E_u|² / ∫(|E_u|² + |E_v|²) over the plane, u its first transverse axis.",
    }),
    group_index: Type.Optional(Type.Number()),
    fields: Type.Optional(
      Type.Record(Type.String(), complexArray, {
        description:
          "Ex … Hz at the plane's cell centres (index i·n_v + j, i along the first axis), V/m and A/m for 1 W through the plane, the phase making the largest transverse E sample real.",
      }),
    ),
  },
  { additionalProperties: false, title: "Mode" },
);

export const ModesResponseSchema = Type.Object(
  {
    plane: Type.Object(
      {
        normal: Type.String(),
        axes: Type.Tuple([Type.String(), Type.String()]),
        position_m: Type.Number({ description: "The grid's node plane the plane was put on." }),
        cells: Type.Tuple([Type.Integer(), Type.Integer()]),
      },
      { additionalProperties: false },
    ),
    wavelengths_m: Type.Array(Type.Number()),
    modes: Type.Array(ModeResultSchema, { description: "By wavelength, then mode_index." }),
    grid: Type.Optional(Type.Record(Type.String(), Type.Array(Type.Number()))),
    unknowns: Type.Integer(),
    solve_seconds: Type.Number(),
    notes: Type.Array(Type.String(), {
      description:
        "What the answer cannot say by itself, with what to change: a mode whose k_eff is negative (the plane's absorber on a still evanescent field, a bend's inside its caustic), a bend with no absorber on its outer side (k_eff 0 by construction).",
    }),
  },
  { additionalProperties: false, $id: "ModesResponse", title: "ModesResponse" },
);
