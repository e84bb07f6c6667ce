/**
 * The simulation request (spec §2.1) as a JSON schema, with DESIGN §2's extensions, bounds and
 * defaults. The same schema validates submissions on the server, validates locally in the CLI,
 * and generates the OpenAPI document; `Static` gives the TypeScript type. A `title` names a
 * schema in that document (a component of src/http/openapi.ts); validation ignores it.
 */
import Type, { type Static } from "typebox";
import {
  DEFAULT_MAX_STEP_RATIO,
  MAX_AMPLITUDE_V_PER_M,
  MAX_DIPOLE_MOMENT,
  MAX_FAR_FIELD_WAVELENGTHS,
  MAX_FLUX_WAVELENGTHS,
  MAX_LENGTH_M,
  MAX_MONITOR_WAVELENGTHS,
  MAX_POLE_DELTA_EPS,
  MAX_POLE_RATE_RAD_PER_S,
  MAX_POLYSLAB_HOLES,
  MAX_POLYSLAB_VERTICES,
  MAX_SIDEWALL_ANGLE_DEG,
  MIN_AMPLITUDE_V_PER_M,
  MIN_COURANT_FACTOR,
  MIN_DIPOLE_MOMENT,
  type Axis,
  type Boundary,
  type DomainSpec,
  type FarFieldMonitorSpec,
  type FdtdSettings,
  type FieldComponent,
  type FieldMonitorSpec,
  type GaussianBeamSpec,
  type ModeSourceSpec,
  type ModeSpecSpec,
  MAX_MODES_PER_WAVELENGTH,
  MAX_MODE_MONITOR_WAVELENGTHS,
  type PlaneWaveSpec,
  type PointDipoleSpec,
  type PolySlabSpec,
  type StructureSpec,
} from "../solver/index.js";
import { metadataSchema } from "./metadata.js";

/**
 * The default of every optional field that `applyDefaults` (validate.ts) fills in, written once:
 * the field's schema below says it in its description (`withDefault`), and applyDefaults reads
 * it from here. Not a JSON-schema `default`: Ajv would then fill requests in itself, and the
 * OpenAPI document would change. `max_step_ratio`'s is defined in the solver
 * (solver/types.ts), which grades a grid with it when a spec leaves the ratio out, and which may
 * not import this layer (docs/architecture.md, "A request field, from schema to solver").
 */
export const DEFAULTS = {
  domain: {
    boundary_conditions: ["pml", "pml", "pml"] as [Boundary, Boundary, Boundary],
    pml_layers: 12,
    max_step_ratio: DEFAULT_MAX_STEP_RATIO,
  },
  plane_wave: { polarization: "te" as PlaneWaveSpec["polarization"], amplitude: 1 },
  point_dipole: { amplitude: 1 },
  gaussian_beam: {
    polarization: "te" as GaussianBeamSpec["polarization"],
    waist_distance: 0,
    amplitude: 1,
  },
  mode: {
    mode_index: 0,
    mode_spec: { num_modes: 1, target_neff: null, filter_pol: null } as ModeSpecSpec,
  },
  polyslab: { sidewall_angle_deg: 0 },
  field_monitor: { components: ["Ex", "Ey", "Ez"] as FieldComponent[] },
  far_field_monitor: {
    theta_deg: { start: 0, stop: 180, points: 37 },
    phi_deg: { start: 0, stop: 355, points: 72 },
  },
  /**
   * A far-field monitor's angles in a 2-D cross-section (the domain periodic and one cell thick
   * along the key's axis): the directions in the cross-section's plane, where a line's
   * pattern lies (solver/far-field-cross-section.ts).
   */
  far_field_cross_section: {
    x: { theta_deg: { start: 0, stop: 180, points: 37 }, phi_deg: [90, 270] },
    y: { theta_deg: { start: 0, stop: 180, points: 37 }, phi_deg: [0, 180] },
    z: { theta_deg: [90], phi_deg: { start: 0, stop: 355, points: 72 } },
  },
  fdtd_settings: {
    time_steps: 20000,
    courant_factor: 0.99,
    convergence_threshold: 1e-6,
    check_every_n: 1000,
  },
} satisfies {
  domain: Partial<DomainSpec>;
  plane_wave: Partial<PlaneWaveSpec>;
  point_dipole: Partial<PointDipoleSpec>;
  gaussian_beam: Partial<GaussianBeamSpec>;
  mode: Partial<ModeSourceSpec>;
  polyslab: Partial<PolySlabSpec>;
  field_monitor: Partial<FieldMonitorSpec>;
  far_field_monitor: Partial<FarFieldMonitorSpec>;
  far_field_cross_section: Record<Axis, Pick<FarFieldMonitorSpec, "theta_deg" | "phi_deg">>;
  fdtd_settings: FdtdSettings;
};

/** How a description says a default: 1e-6 rather than 0.000001, lists as JSON. */
function defaultWords(value: number | string | readonly string[]): string {
  if (typeof value === "string") return value;
  if (typeof value !== "number") return JSON.stringify(value);
  return value !== 0 && Math.abs(value) < 1e-3 ? value.toExponential() : String(value);
}

/**
 * A field's description followed by the sentence that gives its default ("Default 1.2."), so
 * the prose cannot drift from the value applyDefaults fills in. `words` replaces the value's
 * own spelling where prose reads better ("all pml").
 */
export const withDefault = (
  description: string,
  value: number | string | readonly string[],
  words = defaultWords(value),
) => `${description}${description === "" ? "" : " "}Default ${words}.`;

type NumberBounds = {
  exclusiveMinimum?: number;
  minimum?: number;
  maximum?: number;
  "x-unit"?: "m";
};
/**
 * A length's unit, an annotation of its number schema (OpenAPI allows `x-` keywords; Ajv is
 * not strict): what a batch parameter's pointer sets is then known to be a length, so that its
 * sweep coordinate gets `units="m"` and the dashboard shows it in µm (pointer-unit.ts).
 */
export const IN_METRES = { "x-unit": "m" } as const;
const vec3 = (description: string, bounds: NumberBounds = {}) =>
  Type.Tuple([Type.Number(bounds), Type.Number(bounds), Type.Number(bounds)], { description });
/**
 * Lengths and coordinates in metres, within ±MAX_LENGTH_M (solver/bounds.ts: beyond it areas
 * and cell counts overflow; issue #26). `domain.size` is held to it by the checks instead
 * (checks/domain.ts), beside its bound by the grid step.
 */
const coordinateBounds = { minimum: -MAX_LENGTH_M, maximum: MAX_LENGTH_M, ...IN_METRES };
export const coordinates3 = (description: string) => vec3(description, coordinateBounds);
export const extents3 = (description: string, lowest: NumberBounds) =>
  vec3(description, { ...lowest, maximum: MAX_LENGTH_M, ...IN_METRES });
export const length = (description: string) =>
  Type.Number({ exclusiveMinimum: 0, maximum: MAX_LENGTH_M, ...IN_METRES, description });
/** An angular frequency or damping rate of a pole, rad/s (solver/bounds.ts). */
const poleRate = (description: string, lowest: NumberBounds) =>
  Type.Number({ ...lowest, maximum: MAX_POLE_RATE_RAD_PER_S, description });
/**
 * An enumeration of strings that says it is a string: with `type` Ajv checks `uniqueItems`
 * over such items with a hash in linear time; without it, it compares every pair. Its
 * TypeScript type keeps the literals, so `SimulationRequest` is the type clients generate
 * from /openapi.json (test/openapi/document.test.ts).
 */
export const stringEnum = <const Values extends string[]>(
  values: readonly [...Values],
  options: { description?: string } = {},
) => Type.Enum(values, { type: "string", ...options });

export const BOUNDARIES = ["pml", "periodic", "pec", "pmc"] as const;
export const SYMMETRIES = ["none", "pec", "pmc"] as const;
export const COMPONENTS = ["Ex", "Ey", "Ez", "Hx", "Hy", "Hz"] as const;
export const MAX_STRUCTURES = 1000;
export const MAX_MONITORS = 64;
export {
  MAX_FAR_FIELD_WAVELENGTHS,
  MAX_FLUX_WAVELENGTHS,
  MAX_MONITOR_WAVELENGTHS,
} from "../solver/index.js";

export const MAX_MESH_OVERRIDES = 100;

export const MeshOverrideSchema = Type.Object(
  {
    center: coordinates3("Centre in metres."),
    size: extents3(
      "Extent in metres; 0 along an axis refines the grid around the plane through `center` there.",
      { minimum: 0 },
    ),
    resolution: Type.Union(
      [
        length("Largest grid step inside the box along every axis, in metres."),
        extents3(
          "Largest grid step inside the box along x, y and z, in metres; domain.resolution along an axis not to refine.",
          { exclusiveMinimum: 0 },
        ),
      ],
      {
        description:
          "Largest grid step inside the box, in metres: one number for every axis, or one per axis. At most domain.resolution, and at least 1/1000 of it.",
      },
    ),
  },
  {
    additionalProperties: false,
    title: "MeshOverride",
    description:
      "A box where the grid is finer: along each axis the cells between center − size/2 and center + size/2 are at most `resolution` long, and the steps grade back to domain.resolution outside it. The grid is a product of three axes, so refining along x refines the whole slab of the domain between those x.",
  },
);

export const DomainSchema = Type.Object(
  {
    size: vec3(
      "Extent of the region of interest along x, y, z in metres; the domain is centred on the origin.",
      { exclusiveMinimum: 0, ...IN_METRES },
    ),
    resolution: length(
      "Grid step (cell edge length) in metres, at least 1e-12; with mesh overrides, the longest step of the grid.",
    ),
    boundary_conditions: Type.Optional(
      Type.Tuple([stringEnum(BOUNDARIES), stringEnum(BOUNDARIES), stringEnum(BOUNDARIES)], {
        description: withDefault(
          "One per axis: pml, periodic, pec or pmc.",
          DEFAULTS.domain.boundary_conditions,
          `all ${DEFAULTS.domain.boundary_conditions[0]}`,
        ),
      }),
    ),
    pml_layers: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100,
        description: withDefault(
          "Absorbing cells added outside `size` on each pml face.",
          DEFAULTS.domain.pml_layers,
        ),
      }),
    ),
    mesh_overrides: Type.Optional(
      Type.Array(MeshOverrideSchema, {
        maxItems: MAX_MESH_OVERRIDES,
        description:
          "Regions with a finer grid (a graded, non-uniform grid). Default none: a uniform grid of step `resolution`.",
      }),
    ),
    max_step_ratio: Type.Optional(
      Type.Number({
        minimum: 1.05,
        maximum: 2,
        description: withDefault(
          "Largest ratio of neighbouring cells' steps where the grid grades from a mesh override to `resolution`.",
          DEFAULTS.domain.max_step_ratio,
        ),
      }),
    ),
    symmetry: Type.Optional(
      Type.Tuple([stringEnum(SYMMETRIES), stringEnum(SYMMETRIES), stringEnum(SYMMETRIES)], {
        description:
          "Mirror symmetry of the fields about the plane through the origin normal to each axis: pec (tangential E odd about the plane, e.g. x for a plane wave along z polarised along x), pmc (tangential E even, e.g. y for that wave) or none. Along a symmetric axis the solver steps only the half of the domain at coordinates ≥ 0 (half the cells and time per axis) and returns results for the whole domain. The source, the structures and the monitors must be symmetric too. Default none.",
      }),
    ),
  },
  {
    additionalProperties: false,
    title: "Domain",
    description: "The simulated region, centred on the origin, and its grid.",
  },
);

export const PlaneWaveSourceSchema = Type.Object(
  {
    source_type: Type.Literal("plane_wave"),
    wavelength: length("Vacuum wavelength of the carrier in metres."),
    polarization: Type.Optional(
      stringEnum(["te", "tm"], {
        description: withDefault(
          "te: E perpendicular to the plane holding the direction and z (s); tm: in it (p).",
          DEFAULTS.plane_wave.polarization,
        ),
      }),
    ),
    direction: vec3("Propagation direction; normalised by the server, never zero."),
    amplitude: Type.Optional(
      Type.Number({
        minimum: MIN_AMPLITUDE_V_PER_M,
        maximum: MAX_AMPLITUDE_V_PER_M,
        description: withDefault("Amplitude of E in V/m.", DEFAULTS.plane_wave.amplitude),
      }),
    ),
  },
  {
    additionalProperties: false,
    title: "PlaneWaveSource",
    description:
      "A plane wave modulated by a Gaussian pulse around the carrier wavelength, injected through a total-field/scattered-field plane.",
  },
);

export const PointDipoleSourceSchema = Type.Object(
  {
    source_type: Type.Literal("point_dipole"),
    wavelength: length("Vacuum wavelength of the carrier in metres."),
    center: coordinates3(
      "Position of the dipole in metres: inside the domain, not in the absorber; in any material.",
    ),
    polarization: stringEnum(["Ex", "Ey", "Ez", "Hx", "Hy", "Hz"], {
      description:
        "The dipole's axis: Ex, Ey, Ez an electric dipole (a current along that axis), Hx, Hy, Hz a magnetic one.",
    }),
    amplitude: Type.Optional(
      Type.Number({
        minimum: MIN_DIPOLE_MOMENT,
        maximum: MAX_DIPOLE_MOMENT,
        description: withDefault(
          "The dipole's moment at every recorded wavelength: for an electric dipole its current moment I·ℓ in A·m (a charge dipole p has I·ℓ = ωp), for a magnetic dipole its magnetic current moment in V·m.",
          DEFAULTS.point_dipole.amplitude,
        ),
      }),
    ),
  },
  {
    additionalProperties: false,
    title: "PointDipoleSource",
    examples: [
      {
        source_type: "point_dipole",
        wavelength: 1.55e-6,
        center: [0, 0, 0.1e-6],
        polarization: "Ez",
      },
    ],
    description:
      "A point dipole modulated by a Gaussian pulse around the carrier wavelength: an emitter, e.g. for Purcell factors and radiation patterns. Flux monitors then report power relative to the same dipole in vacuum.",
  },
);

export const GaussianBeamSourceSchema = Type.Object(
  {
    source_type: Type.Literal("gaussian_beam"),
    wavelength: length("Vacuum wavelength of the carrier in metres."),
    center: coordinates3(
      "A point on the injection plane, where the beam's axis crosses it (metres); inside the domain.",
    ),
    size: extents3(
      "The injection plane's extent in metres: zero along the dominant axis of `direction` (the plane's normal), a few waists across. In a 2-D cross-section (the domain one cell thick across the beam) the plane spans the thin axis whatever its size there, and the beam is the 2-D one.",
      { minimum: 0 },
    ),
    direction: vec3(
      "Propagation direction (at most 45° from the plane's normal); normalised by the server.",
    ),
    polarization: Type.Optional(
      stringEnum(["te", "tm"], {
        description: withDefault(
          "te: E perpendicular to the plane holding the direction and z; tm: in it (as the plane wave).",
          DEFAULTS.gaussian_beam.polarization,
        ),
      }),
    ),
    waist_radius: length("Waist radius w0 in metres: the 1/e radius of |E| at the focus."),
    waist_distance: Type.Optional(
      Type.Number({
        ...coordinateBounds,
        description: withDefault(
          "Distance in metres from the injection plane to the focus along `direction` (negative: a focus behind the plane, a diverging beam); at most 100 Rayleigh ranges (π·w0²/λ) either way.",
          DEFAULTS.gaussian_beam.waist_distance,
        ),
      }),
    ),
    amplitude: Type.Optional(
      Type.Number({
        minimum: MIN_AMPLITUDE_V_PER_M,
        maximum: MAX_AMPLITUDE_V_PER_M,
        description: withDefault("Peak |E| at the focus in V/m.", DEFAULTS.gaussian_beam.amplitude),
      }),
    ),
  },
  {
    additionalProperties: false,
    title: "GaussianBeamSource",
    examples: [
      {
        source_type: "gaussian_beam",
        wavelength: 1.55e-6,
        center: [0, 0, -2e-6],
        size: [8e-6, 8e-6, 0],
        direction: [0, 0, 1],
        waist_radius: 2.5e-6,
        waist_distance: 2e-6,
      },
    ],
    description:
      "A focused Gaussian beam (the exact vector beam, not the paraxial one) modulated by a Gaussian pulse, injected one way through a plane of finite size. Field monitors read the beam whose peak |E| at its focus is `amplitude`; flux monitors report power over the beam's power.",
  },
);

export const ModeSpecSchema = Type.Object(
  {
    num_modes: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_MODES_PER_WAVELENGTH,
        description: withDefault(
          "Modes per wavelength, by n_eff (highest first).",
          DEFAULTS.mode.mode_spec.num_modes,
        ),
      }),
    ),
    target_neff: Type.Optional(
      Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: 100 }), Type.Null()], {
        description:
          "The modes nearest this effective index are found. Default the largest refractive index on the plane (the most confined guided modes).",
      }),
    ),
    bend_radius: Type.Optional(
      Type.Union([Type.Number(coordinateBounds), Type.Null()], {
        description:
          "A bent guide's radius in metres, measured from the plane's centre along the radial axis (the transverse axis other than bend_axis), signed: positive puts the centre of curvature towards −radial. Its modes then lose power to radiation (k_eff > 0) where the plane has absorber on the outer side. Default null (straight).",
      }),
    ),
    bend_axis: Type.Optional(
      Type.Union([Type.Literal(0), Type.Literal(1)], {
        description:
          "The transverse axis (0 or 1, in the plane's order) the guide bends about. Default 1: for an x- or y-normal plane, z (a bend in the chip's plane).",
      }),
    ),
    filter_pol: Type.Optional(
      Type.Union([stringEnum(["te", "tm"]), Type.Null()], {
        description:
          "Put the modes of this polarisation first: `te`, E mostly along the plane's first transverse axis (te_fraction ≥ ½), `tm` along the second. Default null (by n_eff only).",
      }),
    ),
  },
  { additionalProperties: false, title: "ModeSpec" },
);

export const ModeSourceSchema = Type.Object(
  {
    source_type: Type.Literal("mode"),
    wavelength: length("Vacuum wavelength of the carrier in metres."),
    center: coordinates3("A point on the mode's plane, in metres."),
    size: extents3(
      "The mode's plane in metres: zero along the axis of `direction`; its transverse axes are (y, z) for x, (x, z) for y, (x, y) for z.",
      { minimum: 0 },
    ),
    direction: stringEnum(["+x", "-x", "+y", "-y", "+z", "-z"], {
      description: "The way the mode is injected, along the plane's normal.",
    }),
    mode_index: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_MODES_PER_WAVELENGTH - 1,
        description: withDefault(
          "Which of the plane's modes (by n_eff, highest first, as POST /v1/modes numbers them); below mode_spec.num_modes.",
          DEFAULTS.mode.mode_index,
        ),
      }),
    ),
    mode_spec: Type.Optional(ModeSpecSchema),
  },
  {
    additionalProperties: false,
    title: "ModeSource",
    examples: [
      {
        source_type: "mode",
        wavelength: 1.55e-6,
        center: [0, 0, -2e-6],
        size: [2e-6, 2e-6, 0],
        direction: "+z",
      },
    ],
    description:
      "A waveguide mode of the plane, solved on the run's own grid, injected one way through the plane: exactly 1 W in that mode at every monitor wavelength. Flux monitors report power in watts over that 1 W.",
  },
);

export const WavelengthRangeSchema = Type.Object(
  {
    start: length("First vacuum wavelength in metres."),
    stop: length("Last vacuum wavelength in metres."),
    points: Type.Integer({
      minimum: 1,
      maximum: MAX_FLUX_WAVELENGTHS,
      description: `Wavelengths from start to stop, equally spaced, both included (at most ${MAX_MONITOR_WAVELENGTHS} for a field monitor, ${MAX_FLUX_WAVELENGTHS} for a flux monitor).`,
    }),
  },
  { additionalProperties: false, title: "WavelengthRange" },
);

export const MAX_PORTS = 16;

/** A port's name: also the rule a layout's port label must meet (fabrication/gds-ports.ts). */
export const PORT_NAME_PATTERN = "^[A-Za-z0-9_.-]+$";
export const PORT_NAME_MAX_LENGTH = 32;

export const PortSchema = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: PORT_NAME_MAX_LENGTH,
      pattern: PORT_NAME_PATTERN,
      description: "Unique label (letters, digits, _ . -), e.g. o1.",
    }),
    center: coordinates3("A point on the port's plane, in metres."),
    size: extents3(
      "The port's plane in metres: zero along the axis of `direction`, wide enough to hold its modes.",
      { minimum: 0 },
    ),
    direction: stringEnum(["+x", "-x", "+y", "-y", "+z", "-z"], {
      description: "The way into the device, along the plane's normal.",
    }),
    mode_spec: Type.Optional(ModeSpecSchema),
  },
  {
    additionalProperties: false,
    title: "Port",
    description:
      "A waveguide port: a plane across a guide, the way into the device, and its modes (mode_spec.num_modes of them enter the S-matrix as port@mode).",
  },
);

export const PortsSourceSchema = Type.Object(
  {
    source_type: Type.Literal("ports"),
    wavelength: length("Vacuum wavelength of every run's carrier in metres (mid-band)."),
    wavelengths: Type.Optional(
      Type.Union(
        [
          Type.Array(length("Vacuum wavelength in metres."), {
            minItems: 1,
            maxItems: MAX_MODE_MONITOR_WAVELENGTHS,
            uniqueItems: true,
          }),
          WavelengthRangeSchema,
        ],
        {
          description:
            "The S-matrix's wavelengths, a list (each once: a Touchstone file's frequencies are distinct) or {start, stop, points}; default the carrier's.",
        },
      ),
    ),
    run_ports: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 32 }), {
        minItems: 1,
        maxItems: MAX_PORTS,
        uniqueItems: true,
        description:
          "The ports whose modes are launched, one run each, each named once; default all.",
      }),
    ),
    port_symmetries: Type.Optional(
      Type.Record(
        Type.String({ maxLength: 80 }),
        Type.Array(Type.String({ maxLength: 80 }), { maxItems: 256 }),
        {
          maxProperties: 256,
          // A record's key schema is not kept in the JSON schema it generates (only its values').
          propertyNames: { maxLength: 80 },
          description:
            'Elements of the S-matrix the device\'s symmetry or reciprocity gives for free, as in gdsfactory\'s port_symmetries but in emsim\'s s[out][in] order: each key "out,in" (port@mode names) is computed by the runs and copied to every "out,in" of its list, whose inputs need not run. E.g. a symmetric two-port run from o1 only: {"o2@0,o1@0": ["o1@0,o2@0"], "o1@0,o1@0": ["o2@0,o2@0"]}.',
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    title: "PortsSource",
    examples: [
      {
        source_type: "ports",
        wavelength: 1.55e-6,
        wavelengths: { start: 1.5e-6, stop: 1.6e-6, points: 11 },
      },
    ],
    description:
      "Runs every input port's modes in turn (a mode source just inside the port, mode monitors on every port) and reports the scattering matrix: solver_report.s_matrix, GET …/sparameters.",
  },
);

/** A discriminated union on `source_type`, so that a bad dipole is reported as a bad dipole. */
export const SourceSchema = Type.Unsafe<
  | Static<typeof PlaneWaveSourceSchema>
  | Static<typeof PointDipoleSourceSchema>
  | Static<typeof GaussianBeamSourceSchema>
  | Static<typeof ModeSourceSchema>
  | Static<typeof PortsSourceSchema>
>({
  type: "object",
  required: ["source_type"],
  discriminator: { propertyName: "source_type" },
  oneOf: [
    PlaneWaveSourceSchema,
    PointDipoleSourceSchema,
    GaussianBeamSourceSchema,
    ModeSourceSchema,
    PortsSourceSchema,
  ],
  title: "Source",
  description:
    "A plane wave (plane_wave), a point dipole (point_dipole), a Gaussian beam (gaussian_beam), a waveguide mode (mode) or every port's modes in turn (ports: S-parameters).",
});

const material = Type.String({
  minLength: 1,
  maxLength: 64,
  description:
    "Name from the material library (see GET /v1/materials; `PEC` is the perfect electric conductor, E = 0 inside it) or of a material defined in the request's `materials`.",
});

export const BoxSchema = Type.Object(
  {
    type: Type.Literal("box"),
    center: coordinates3("Centre in metres."),
    size: extents3("Extent in metres.", { exclusiveMinimum: 0 }),
    material,
  },
  {
    additionalProperties: false,
    title: "BoxStructure",
    description: "An axis-aligned box of one material.",
  },
);
export const SphereSchema = Type.Object(
  {
    type: Type.Literal("sphere"),
    center: coordinates3("Centre in metres."),
    radius: length("Radius in metres."),
    material,
  },
  {
    additionalProperties: false,
    title: "SphereStructure",
    description: "A sphere of one material.",
  },
);
export const CylinderSchema = Type.Object(
  {
    type: Type.Literal("cylinder"),
    center: coordinates3("Centre in metres."),
    radius: length("Radius in metres."),
    height: length("Length along the axis in metres."),
    axis: stringEnum(["x", "y", "z"]),
    material,
  },
  {
    additionalProperties: false,
    title: "CylinderStructure",
    description: "A circular cylinder of one material along x, y or z.",
  },
);

const xy = Type.Tuple([Type.Number(coordinateBounds), Type.Number(coordinateBounds)]);
const outline = (description: string) =>
  Type.Array(xy, { minItems: 3, maxItems: MAX_POLYSLAB_VERTICES, description });
const sidewallAngle = Type.Optional(
  Type.Number({
    minimum: -MAX_SIDEWALL_ANGLE_DEG,
    maximum: MAX_SIDEWALL_ANGLE_DEG,
    description: withDefault(
      "Degrees from vertical; positive shrinks the outline going up (the vertices are the outline at z_min).",
      DEFAULTS.polyslab.sidewall_angle_deg,
    ),
  }),
);
export const PolySlabSchema = Type.Object(
  {
    type: Type.Literal("polyslab"),
    vertices: outline(
      "Outline [[x, y], …] in metres at the bottom (z_min), either orientation, at least 3 vertices; it must not intersect itself. A repeated closing vertex is ignored.",
    ),
    holes: Type.Optional(
      Type.Array(outline("A hole's outline, inside the outline."), {
        maxItems: MAX_POLYSLAB_HOLES,
        description: "Outlines cut out of the polygon (each inside it, none touching).",
      }),
    ),
    z_min: Type.Number({ ...coordinateBounds, description: "Bottom in metres." }),
    z_max: Type.Number({ ...coordinateBounds, description: "Top in metres (greater than z_min)." }),
    sidewall_angle_deg: sidewallAngle,
    material,
  },
  {
    additionalProperties: false,
    title: "PolySlabStructure",
    description: `A polygon in the x–y plane extruded from z_min to z_max, with an optional sidewall angle; at most ${MAX_POLYSLAB_VERTICES} vertices (holes included).`,
  },
);

/** Most layers one gds structure maps. */
export const MAX_GDS_LAYERS = 64;

const gdsLayerNumber = (description: string) =>
  Type.Integer({ minimum: 0, maximum: 32767, description });
const GdsLayerSchema = Type.Object(
  {
    layer: gdsLayerNumber("GDS layer number."),
    datatype: Type.Optional(gdsLayerNumber("GDS datatype. Default 0.")),
    material,
    z_min: Type.Number({
      ...coordinateBounds,
      description: "Bottom of this layer's polyslabs in metres.",
    }),
    z_max: Type.Number({ ...coordinateBounds, description: "Top in metres." }),
    sidewall_angle_deg: sidewallAngle,
  },
  { additionalProperties: false, title: "GdsLayerMapping" },
);

/** Default of a gds structure's `ports.margin`: room around the guide's core for its mode's tails. */
export const DEFAULT_GDS_PORT_MARGIN_M = 1e-6;

/**
 * How far past the domain's outermost cell (its absorber included) a gds structure's port
 * extension reaches by default, and at most: room for a grid that rounds outward.
 */
export const GDS_PORT_EXTENSION_BEYOND_DOMAIN_M = 1e-6;

export const GdsPortsSchema = Type.Object(
  {
    layer: gdsLayerNumber("GDS layer of the port labels (TEXT elements)."),
    texttype: Type.Optional(gdsLayerNumber("TEXTTYPE of the port labels. Default 0.")),
    waveguide_layer: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_GDS_LAYERS - 1,
        description:
          "Index in `layers` of the layer whose merged outline the labels sit on (the waveguide core); its z range gives the ports' height. Default 0.",
      }),
    ),
    margin: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: MAX_LENGTH_M,
        ...IN_METRES,
        description: withDefault(
          "Metres added on each side of the guide's width and height to make each port's plane.",
          DEFAULT_GDS_PORT_MARGIN_M,
        ),
      }),
    ),
    mode_spec: Type.Optional(ModeSpecSchema),
    extension: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: MAX_LENGTH_M,
        ...IN_METRES,
        description: `Metres by which each labelled guide end is extended straight outward (a rectangle as wide as the end face, merged into the waveguide layer's polygon), so that the guide runs on through the port's plane and the absorber instead of ending there. Default: ${GDS_PORT_EXTENSION_BEYOND_DOMAIN_M.toExponential()} m past the domain's outermost cell, absorber included (longer values are cut there); 0 leaves the ends as drawn.`,
      }),
    ),
  },
  {
    additionalProperties: false,
    title: "GdsPorts",
    description:
      "Ports from the layout's port labels (gdsfactory and SiEPIC put a TEXT label, the port's name, at the middle of the waveguide's end face): each label on layer/texttype must lie on an x- or y-facing edge of a merged polygon of layers[waveguide_layer]; it becomes a port facing into that polygon, as wide as the edge plus 2·margin, as high as the layer plus 2·margin, and the guide is extended outward from that edge (`extension`). The ports are appended to `ports`, sorted by name.",
  },
);

export const GdsStructureSchema = Type.Object(
  {
    type: Type.Literal("gds"),
    gds_url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        "A gds_url this service issued to your account (POST /v1/fabrication/gds or /v1/fabrication/export-gds); resolved to the stored file, never fetched.",
    }),
    cell: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 126,
        description: "Cell to flatten. Default: every top cell.",
      }),
    ),
    layers: Type.Array(GdsLayerSchema, {
      minItems: 1,
      maxItems: MAX_GDS_LAYERS,
      description: "Which layers to import, each with its material and z range.",
    }),
    offset: Type.Optional(
      Type.Tuple([Type.Number(coordinateBounds), Type.Number(coordinateBounds)], {
        description: "[x, y] in metres added to the layout's coordinates. Default [0, 0].",
      }),
    ),
    ports: Type.Optional(GdsPortsSchema),
  },
  {
    additionalProperties: false,
    title: "GdsStructure",
    description:
      "Polygons of GDS II layers of an uploaded file. On submission the server replaces this entry by one polyslab per merged polygon of each mapped layer (layers in the order given), and `ports` by ports appended to the request's, so the stored job holds only polyslabs and explicit ports.",
  },
);

/** A `type: "gds"` structure of a request (replaced by polyslabs on submission). */
export interface GdsStructureSpec {
  type: "gds";
  gds_url: string;
  cell?: string;
  layers: Array<{
    layer: number;
    datatype?: number;
    material: string;
    z_min: number;
    z_max: number;
    sidewall_angle_deg?: number;
  }>;
  offset?: [number, number];
  ports?: GdsPortsSpec;
}

/** A gds structure's `ports`: which labels mark ports, and on which layer's outline. */
export type GdsPortsSpec = Static<typeof GdsPortsSchema>;

/** A discriminated union on `type`, so that a bad box is reported as a bad box. */
export const StructureSchema = Type.Unsafe<StructureSpec | GdsStructureSpec>({
  type: "object",
  required: ["type"],
  discriminator: { propertyName: "type" },
  oneOf: [BoxSchema, SphereSchema, CylinderSchema, PolySlabSchema, GdsStructureSchema],
  title: "Structure",
  description:
    "A box, sphere, cylinder, polyslab, or the polygons of GDS II layers (gds); later structures override earlier ones.",
});

const monitorName = Type.String({
  minLength: 1,
  maxLength: 64,
  // Not dots alone: the name is the monitor's HDF5 group, where "." and ".." are no names.
  pattern: "^[A-Za-z0-9_.-]*[A-Za-z0-9_-][A-Za-z0-9_.-]*$",
  description: "Unique label (letters, digits, _ . -; not dots alone).",
});

const monitorWavelengths = (most: number) =>
  Type.Optional(
    Type.Union(
      [
        Type.Array(Type.Number({ exclusiveMinimum: 0, maximum: MAX_LENGTH_M, ...IN_METRES }), {
          minItems: 1,
          maxItems: most,
          uniqueItems: true,
        }),
        WavelengthRangeSchema,
      ],
      {
        description:
          "Extension: vacuum wavelengths (metres) to record from the same run, a list (each once: the results are keyed by wavelength) or {start, stop, points}; default the source wavelength. They must lie within ±50 % of the source frequency (the pulse covers that band).",
      },
    ),
  );

export const FieldMonitorSchema = Type.Object(
  {
    name: monitorName,
    monitor_type: Type.Literal("field"),
    center: coordinates3("Centre in metres."),
    size: extents3("Extent in metres; a zero extent along an axis makes a plane.", {
      minimum: 0,
    }),
    components: Type.Optional(
      Type.Array(stringEnum(COMPONENTS), {
        minItems: 1,
        maxItems: 6,
        uniqueItems: true,
        description: withDefault("", DEFAULTS.field_monitor.components),
      }),
    ),
    wavelengths: monitorWavelengths(MAX_MONITOR_WAVELENGTHS),
  },
  {
    additionalProperties: false,
    title: "FieldMonitor",
    description:
      "Records frequency-domain field phasors on a box, plane, line or point, normalised by the source spectrum.",
  },
);

export const FluxMonitorSchema = Type.Object(
  {
    name: monitorName,
    monitor_type: Type.Literal("flux"),
    center: coordinates3("Centre in metres."),
    size: extents3(
      "Extent in metres: a zero extent along exactly one axis makes a plane (flux through it), none a box (net flux out of it).",
      { minimum: 0 },
    ),
    wavelengths: monitorWavelengths(MAX_FLUX_WAVELENGTHS),
  },
  {
    additionalProperties: false,
    title: "FluxMonitor",
    description:
      "Records the net Poynting flux through a plane or out of a box at each wavelength, normalised to the incident wave.",
  },
);

/** Angles in degrees within [0, most]: a list, or {start, stop, points}. */
const angles = (
  what: string,
  most: number,
  value: { start: number; stop: number; points: number },
) =>
  Type.Optional(
    Type.Union(
      [
        Type.Array(Type.Number({ minimum: 0, maximum: most }), {
          minItems: 1,
          maxItems: 361,
          uniqueItems: true,
        }),
        Type.Object(
          {
            start: Type.Number({ minimum: 0, maximum: most }),
            stop: Type.Number({ minimum: 0, maximum: most }),
            points: Type.Integer({ minimum: 1, maximum: 361 }),
          },
          { additionalProperties: false },
        ),
      ],
      {
        description: withDefault(
          `${what} in degrees (0 to ${most}), a list (each once: the pattern is keyed by angle) or {start, stop, points} (both ends included). In a 2-D cross-section every direction must lie in its plane, and the default is that plane's.`,
          `{start: ${value.start}, stop: ${value.stop}, points: ${value.points}}`,
        ),
      },
    ),
  );

export const FarFieldMonitorSchema = Type.Object(
  {
    name: monitorName,
    monitor_type: Type.Literal("far_field"),
    center: coordinates3("Centre in metres."),
    size: extents3(
      "Extent in metres: a box (no zero extent) around the emitters or scatterers, in one medium, inside the domain; a plane (one zero extent) projects the half-space it faces.",
      { minimum: 0 },
    ),
    wavelengths: monitorWavelengths(MAX_FAR_FIELD_WAVELENGTHS),
    theta_deg: angles("Polar angles from +z", 180, DEFAULTS.far_field_monitor.theta_deg),
    phi_deg: angles("Azimuths from +x about +z", 360, DEFAULTS.far_field_monitor.phi_deg),
  },
  {
    additionalProperties: false,
    title: "FarFieldMonitor",
    description:
      "Projects the fields on a closed box (or a plane) to the far field: radiant intensity in W/sr over (θ, φ) at each wavelength, in the medium around the box; in a 2-D cross-section the line's pattern in its plane, in W/rad per period. With a plane wave it projects the scattered field, with a dipole the total field.",
  },
);

export const ModeMonitorSchema = Type.Object(
  {
    name: monitorName,
    monitor_type: Type.Literal("mode"),
    center: coordinates3("Centre in metres."),
    size: extents3(
      'The plane in metres: zero along exactly one axis, its normal ("+" amplitudes travel along +normal); its transverse axes as for POST /v1/modes.',
      { minimum: 0 },
    ),
    wavelengths: monitorWavelengths(MAX_MODE_MONITOR_WAVELENGTHS),
    mode_spec: Type.Optional(ModeSpecSchema),
  },
  {
    additionalProperties: false,
    title: "ModeMonitor",
    description:
      "Decomposes the fields on a plane into the plane's modes (solved on the run's own grid): the amplitude of each mode along +normal and −normal at each wavelength, and its n_eff. With a mode source |amplitude|² is the power in that mode over the 1 W the source injects.",
  },
);

/** A discriminated union on `monitor_type`, so that a bad flux monitor is reported as one. */
export const MonitorSchema = Type.Unsafe<
  | Static<typeof FieldMonitorSchema>
  | Static<typeof FluxMonitorSchema>
  | Static<typeof FarFieldMonitorSchema>
  | Static<typeof ModeMonitorSchema>
>({
  type: "object",
  required: ["monitor_type"],
  discriminator: { propertyName: "monitor_type" },
  oneOf: [FieldMonitorSchema, FluxMonitorSchema, FarFieldMonitorSchema, ModeMonitorSchema],
  title: "Monitor",
  description:
    "A field monitor (phasors of components), a flux monitor (Poynting flux through a plane or out of a box), a far-field monitor (radiation pattern) or a mode monitor (mode amplitudes).",
});

export const MAX_USER_MATERIALS = 16;
export const MAX_POLES = 8;

const LorentzPoleSchema = Type.Object(
  {
    type: Type.Literal("lorentz"),
    delta_eps: Type.Number({
      minimum: -MAX_POLE_DELTA_EPS,
      maximum: MAX_POLE_DELTA_EPS,
      description: "Strength Δε (dimensionless).",
    }),
    omega0: poleRate("Resonance angular frequency ω0 in rad/s.", { exclusiveMinimum: 0 }),
    gamma: poleRate("Damping γ in rad/s.", { minimum: 0 }),
  },
  {
    additionalProperties: false,
    title: "LorentzPole",
    description: "Δε·ω0² / (ω0² − ω² − iγω).",
  },
);
const DrudePoleSchema = Type.Object(
  {
    type: Type.Literal("drude"),
    omega_p: poleRate("Plasma angular frequency ωp in rad/s.", { exclusiveMinimum: 0 }),
    gamma: poleRate("Damping γ in rad/s.", { minimum: 0 }),
  },
  { additionalProperties: false, title: "DrudePole", description: "−ωp² / (ω² + iγω)." },
);

export const UserMaterialSchema = Type.Object(
  {
    permittivity: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 1e4,
        description:
          "ε∞: the relative permittivity, or with poles its high-frequency part. Default 1.",
      }),
    ),
    conductivity: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1e9, description: "σ in S/m. Default 0." }),
    ),
    poles: Type.Optional(
      Type.Array(
        Type.Unsafe<
          | { type: "lorentz"; delta_eps: number; omega0: number; gamma: number }
          | { type: "drude"; omega_p: number; gamma: number }
        >({
          type: "object",
          required: ["type"],
          discriminator: { propertyName: "type" },
          oneOf: [LorentzPoleSchema, DrudePoleSchema],
          title: "Pole",
        }),
        { maxItems: MAX_POLES, description: `At most ${MAX_POLES} Lorentz or Drude poles.` },
      ),
    ),
  },
  {
    additionalProperties: false,
    title: "UserMaterial",
    description:
      "ε(ω) = ε∞ + iσ/(ωε0) + Σ poles (exp(−iωt) convention, ω in rad/s), stepped exactly in the time domain (auxiliary differential equations), so every wavelength sees its own ε.",
  },
);

export const MaterialsSchema = Type.Unsafe<Record<string, Static<typeof UserMaterialSchema>>>({
  type: "object",
  maxProperties: MAX_USER_MATERIALS,
  propertyNames: { type: "string", pattern: "^[A-Za-z][A-Za-z0-9_.-]{0,63}$" },
  additionalProperties: UserMaterialSchema,
  description: `Extension: up to ${MAX_USER_MATERIALS} materials defined in the request, by name (a letter, then letters, digits, _ . -; not a library name), for structures to use.`,
});

export const FdtdSettingsSchema = Type.Object(
  {
    time_steps: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: withDefault(
          "Maximum number of time steps.",
          DEFAULTS.fdtd_settings.time_steps,
        ),
      }),
    ),
    courant_factor: Type.Optional(
      Type.Number({
        minimum: MIN_COURANT_FACTOR,
        maximum: 1,
        description: withDefault(
          "S in dt = S·dx/(c·√3), from 0.01 to 1.",
          DEFAULTS.fdtd_settings.courant_factor,
        ),
      }),
    ),
    convergence_threshold: Type.Optional(
      Type.Number({
        minimum: 0,
        exclusiveMaximum: 1,
        description: withDefault(
          "Relative L2 change between checks that stops the run; 0 = off.",
          DEFAULTS.fdtd_settings.convergence_threshold,
        ),
      }),
    ),
    check_every_n: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: withDefault(
          "Steps between convergence checks.",
          DEFAULTS.fdtd_settings.check_every_n,
        ),
      }),
    ),
  },
  {
    additionalProperties: false,
    title: "FdtdSettings",
    description: "Time stepping and early stopping.",
  },
);

export const SimulationRequestSchema = Type.Object(
  {
    solver: Type.Literal("fdtd", { description: "Only fdtd." }),
    domain: DomainSchema,
    source: SourceSchema,
    structures: Type.Optional(Type.Array(StructureSchema, { maxItems: MAX_STRUCTURES })),
    monitors: Type.Optional(Type.Array(MonitorSchema, { maxItems: MAX_MONITORS })),
    materials: Type.Optional(MaterialsSchema),
    ports: Type.Optional(Type.Array(PortSchema, { maxItems: MAX_PORTS })),
    fdtd_settings: Type.Optional(FdtdSettingsSchema),
    metadata: Type.Optional(metadataSchema("Free-form; echoed back.")),
  },
  {
    additionalProperties: false,
    $id: "SimulationRequest",
    title: "SimulationRequest",
    description:
      "A simulation to run: domain, source, structures, monitors and solver settings. Lengths and wavelengths in metres.",
  },
);

export type SimulationRequest = Static<typeof SimulationRequestSchema>;
