/**
 * The simulation request (spec §2.1) as a JSON schema, with DESIGN §2's extensions, bounds and
 * defaults. The same schema validates submissions on the server, validates locally in the CLI,
 * and generates the OpenAPI document; `Static` gives the TypeScript type.
 */
import Type, { type Static } from "typebox";
import type { StructureSpec } from "../solver/types.js";

const vec3 = (description: string, bounds: { exclusiveMinimum?: number; minimum?: number } = {}) =>
  Type.Tuple([Type.Number(bounds), Type.Number(bounds), Type.Number(bounds)], { description });
const positive = (description: string) => Type.Number({ exclusiveMinimum: 0, description });

export const BOUNDARIES = ["pml", "periodic", "pec", "pmc"] as const;
export const COMPONENTS = ["Ex", "Ey", "Ez", "Hx", "Hy", "Hz"] as const;
export const MAX_STRUCTURES = 1000;
export const MAX_MONITORS = 64;
export const MAX_MONITOR_WAVELENGTHS = 64;
export const MAX_FLUX_WAVELENGTHS = 200;

export const DomainSchema = Type.Object(
  {
    size: vec3(
      "Extent of the region of interest along x, y, z in metres; the domain is centred on the origin.",
      { exclusiveMinimum: 0 },
    ),
    resolution: positive("Grid step (cell edge length) in metres."),
    boundary_conditions: Type.Optional(
      Type.Tuple(
        [
          Type.Enum(BOUNDARIES as unknown as string[]),
          Type.Enum(BOUNDARIES as unknown as string[]),
          Type.Enum(BOUNDARIES as unknown as string[]),
        ],
        { description: "One per axis: pml, periodic, pec or pmc. Default all pml." },
      ),
    ),
    pml_layers: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100,
        description: "Absorbing cells added outside `size` on each pml face. Default 12.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const SourceSchema = Type.Object(
  {
    source_type: Type.Literal("plane_wave", { description: "Only plane_wave." }),
    wavelength: positive("Vacuum wavelength of the carrier in metres."),
    polarization: Type.Optional(
      Type.Enum(["te", "tm"], {
        description:
          "te: E perpendicular to the plane holding the direction and z (s); tm: in it (p). Default te.",
      }),
    ),
    direction: vec3("Propagation direction; normalised by the server, never zero."),
    amplitude: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, description: "Amplitude of E in V/m. Default 1." }),
    ),
  },
  { additionalProperties: false },
);

const material = Type.String({
  minLength: 1,
  maxLength: 64,
  description: "Name from the material library (see GET /v1/materials).",
});

const BoxSchema = Type.Object(
  {
    type: Type.Literal("box"),
    center: vec3("Centre in metres."),
    size: vec3("Extent in metres.", { exclusiveMinimum: 0 }),
    material,
  },
  { additionalProperties: false },
);
const SphereSchema = Type.Object(
  {
    type: Type.Literal("sphere"),
    center: vec3("Centre in metres."),
    radius: positive("Radius in metres."),
    material,
  },
  { additionalProperties: false },
);
const CylinderSchema = Type.Object(
  {
    type: Type.Literal("cylinder"),
    center: vec3("Centre in metres."),
    radius: positive("Radius in metres."),
    height: positive("Length along the axis in metres."),
    axis: Type.Enum(["x", "y", "z"]),
    material,
  },
  { additionalProperties: false },
);

/** A discriminated union on `type`, so that a bad box is reported as a bad box. */
export const StructureSchema = Type.Unsafe<StructureSpec>({
  type: "object",
  required: ["type"],
  discriminator: { propertyName: "type" },
  oneOf: [BoxSchema, SphereSchema, CylinderSchema],
  description: "A box, sphere or cylinder; later structures override earlier ones.",
});

const monitorName = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: "^[A-Za-z0-9_.-]+$",
  description: "Unique label (letters, digits, _ . -).",
});

export const WavelengthRangeSchema = Type.Object(
  {
    start: positive("First vacuum wavelength in metres."),
    stop: positive("Last vacuum wavelength in metres."),
    points: Type.Integer({
      minimum: 1,
      maximum: MAX_FLUX_WAVELENGTHS,
      description: `Wavelengths from start to stop, equally spaced, both included (at most ${MAX_MONITOR_WAVELENGTHS} for a field monitor, ${MAX_FLUX_WAVELENGTHS} for a flux monitor).`,
    }),
  },
  { additionalProperties: false },
);

const monitorWavelengths = (most: number) =>
  Type.Optional(
    Type.Union(
      [
        Type.Array(Type.Number({ exclusiveMinimum: 0 }), { minItems: 1, maxItems: most }),
        WavelengthRangeSchema,
      ],
      {
        description:
          "Extension: vacuum wavelengths (metres) to record from the same run, a list or {start, stop, points}; default the source wavelength. They must lie within ±50 % of the source frequency (the pulse covers that band).",
      },
    ),
  );

export const FieldMonitorSchema = Type.Object(
  {
    name: monitorName,
    monitor_type: Type.Literal("field"),
    center: vec3("Centre in metres."),
    size: vec3("Extent in metres; a zero extent along an axis makes a plane.", { minimum: 0 }),
    components: Type.Optional(
      Type.Array(Type.Enum(COMPONENTS as unknown as string[]), {
        minItems: 1,
        maxItems: 6,
        uniqueItems: true,
        description: 'Default ["Ex","Ey","Ez"].',
      }),
    ),
    wavelengths: monitorWavelengths(MAX_MONITOR_WAVELENGTHS),
  },
  { additionalProperties: false },
);

export const FluxMonitorSchema = Type.Object(
  {
    name: monitorName,
    monitor_type: Type.Literal("flux"),
    center: vec3("Centre in metres."),
    size: vec3(
      "Extent in metres: a zero extent along exactly one axis makes a plane (flux through it), none a box (net flux out of it).",
      { minimum: 0 },
    ),
    wavelengths: monitorWavelengths(MAX_FLUX_WAVELENGTHS),
  },
  { additionalProperties: false },
);

/** A discriminated union on `monitor_type`, so that a bad flux monitor is reported as one. */
export const MonitorSchema = Type.Unsafe<
  Static<typeof FieldMonitorSchema> | Static<typeof FluxMonitorSchema>
>({
  type: "object",
  required: ["monitor_type"],
  discriminator: { propertyName: "monitor_type" },
  oneOf: [FieldMonitorSchema, FluxMonitorSchema],
  description:
    "A field monitor (phasors of components) or a flux monitor (Poynting flux through a plane or out of a box).",
});

export const FdtdSettingsSchema = Type.Object(
  {
    time_steps: Type.Optional(
      Type.Integer({ minimum: 1, description: "Maximum number of time steps. Default 20000." }),
    ),
    courant_factor: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 1,
        description: "S in dt = S·dx/(c·√3). Default 0.99.",
      }),
    ),
    convergence_threshold: Type.Optional(
      Type.Number({
        minimum: 0,
        exclusiveMaximum: 1,
        description: "Relative L2 change between checks that stops the run; 0 = off. Default 1e-6.",
      }),
    ),
    check_every_n: Type.Optional(
      Type.Integer({ minimum: 1, description: "Steps between convergence checks. Default 1000." }),
    ),
  },
  { additionalProperties: false },
);

export const SimulationRequestSchema = Type.Object(
  {
    solver: Type.Literal("fdtd", { description: "Only fdtd." }),
    domain: DomainSchema,
    source: SourceSchema,
    structures: Type.Optional(Type.Array(StructureSchema, { maxItems: MAX_STRUCTURES })),
    monitors: Type.Optional(Type.Array(MonitorSchema, { maxItems: MAX_MONITORS })),
    fdtd_settings: Type.Optional(FdtdSettingsSchema),
    metadata: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: "Free-form; echoed back." }),
    ),
  },
  { additionalProperties: false, $id: "SimulationRequest" },
);

export type SimulationRequest = Static<typeof SimulationRequestSchema>;
