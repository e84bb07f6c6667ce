/**
 * The solver's input type (`SimulationSpec`, solver/types.ts) held to the request's schema by the
 * type checker. The solver may not import the schema (a lower layer; docs/architecture.md), so
 * its types cannot be derived from it; instead each part of the spec is compared, field by
 * field, with the schema's type of that part once applyDefaults (validate.ts) has filled in the
 * defaults it always fills (`DEFAULTS`, simulation.ts). A field in one and not the other, a field
 * optional in one only (a default missing from `DEFAULTS`, or one the spec does not rely on), or
 * a value type that is not the same both ways (an enum member, a tuple's length, a nested
 * field) fails `tsc` here, naming the field: `Type '"name"' does not satisfy the constraint
 * 'never'`. What the type checker cannot see: bounds (minimum, maximum), which the schema
 * alone holds and the solver's checks (solver/checks/) repeat for specs that skip the schema.
 */
import type { Static } from "typebox";
import type {
  BoxSpec,
  CylinderSpec,
  DomainSpec,
  FdtdSettings,
  FieldMonitorSpec,
  FarFieldMonitorSpec,
  FluxMonitorSpec,
  MeshOverrideSpec,
  PolySlabSpec,
  SimulationSpec,
  GaussianBeamSpec,
  ModeSourceSpec,
  PortSpec,
  PortsSourceSpec,
  ModeMonitorSpec,
  ModeSpecSpec,
  PlaneWaveSpec,
  PointDipoleSpec,
  SphereSpec,
  UserMaterialSpec,
} from "../solver/index.js";
import type {
  BoxSchema,
  CylinderSchema,
  DEFAULTS,
  DomainSchema,
  FdtdSettingsSchema,
  FieldMonitorSchema,
  FarFieldMonitorSchema,
  FluxMonitorSchema,
  GdsStructureSchema,
  GdsStructureSpec,
  MeshOverrideSchema,
  PolySlabSchema,
  SimulationRequest,
  GaussianBeamSourceSchema,
  ModeSourceSchema,
  PortSchema,
  PortsSourceSchema,
  ModeMonitorSchema,
  ModeSpecSchema,
  PlaneWaveSourceSchema,
  PointDipoleSourceSchema,
  SphereSchema,
  UserMaterialSchema,
} from "./simulation.js";

/** A part of the request as applyDefaults hands it on: the fields `Filled` are required. */
type WithDefaults<Request, Filled extends keyof Request> = Omit<Request, Filled> & {
  [K in Filled]-?: Exclude<Request[K], undefined>;
};

type IsOptional<T, K extends keyof T> = Partial<Pick<T, K>> extends Pick<T, K> ? true : false;

/**
 * The fields where `A` and `B` differ: present in one only, optional in one only, or with value
 * types not assignable both ways.
 */
type FieldsThatDiffer<A, B> = {
  [K in keyof A | keyof B]-?: K extends keyof A
    ? K extends keyof B
      ? IsOptional<A, K> extends IsOptional<B, K>
        ? [A[K]] extends [B[K]]
          ? [B[K]] extends [A[K]]
            ? never
            : K
          : K
        : K
      : K
    : K;
}[keyof A | keyof B];

/** A type's field names and which are optional, without their value types. */
type Names<T> = { [K in keyof T]: unknown };

/** Compiles only when no field differs; the error names those that do. */
type Agree<Differing extends never> = Differing;

type Defaulted<Part extends keyof typeof DEFAULTS> = keyof (typeof DEFAULTS)[Part];

/**
 * Each line compares one part. `metadata` is stored beside the spec, not handed to the solver;
 * `structures` and `monitors` become `[]` when left out and the parts' own lines compare their
 * members. `max_step_ratio` stays optional in the spec: applyDefaults fills it only with mesh
 * overrides. `sidewall_angle_deg` too: polyslabs also reach the solver from GDS II imports, and
 * the solver reads a missing angle as 0.
 */
export type SpecAgreesWithSchema = [
  Agree<
    FieldsThatDiffer<
      Names<
        WithDefaults<
          Omit<SimulationRequest, "metadata">,
          "structures" | "monitors" | "fdtd_settings"
        >
      >,
      Names<SimulationSpec>
    >
  >,
  Agree<
    FieldsThatDiffer<
      WithDefaults<Static<typeof DomainSchema>, Exclude<Defaulted<"domain">, "max_step_ratio">>,
      DomainSpec
    >
  >,
  Agree<FieldsThatDiffer<Static<typeof MeshOverrideSchema>, MeshOverrideSpec>>,
  Agree<
    FieldsThatDiffer<
      WithDefaults<Static<typeof PlaneWaveSourceSchema>, Defaulted<"plane_wave">>,
      PlaneWaveSpec
    >
  >,
  Agree<
    FieldsThatDiffer<
      WithDefaults<Static<typeof PointDipoleSourceSchema>, Defaulted<"point_dipole">>,
      PointDipoleSpec
    >
  >,
  Agree<
    FieldsThatDiffer<
      WithDefaults<Static<typeof GaussianBeamSourceSchema>, Defaulted<"gaussian_beam">>,
      GaussianBeamSpec
    >
  >,
  Agree<
    FieldsThatDiffer<
      WithDefaults<Omit<Static<typeof ModeSourceSchema>, "mode_spec">, "mode_index">,
      Omit<ModeSourceSpec, "mode_spec">
    >
  >,
  Agree<
    FieldsThatDiffer<
      WithDefaults<Static<typeof ModeSpecSchema>, "num_modes" | "target_neff" | "filter_pol">,
      ModeSpecSpec
    >
  >,
  Agree<
    FieldsThatDiffer<
      WithDefaults<Omit<Static<typeof PortsSourceSchema>, never>, "wavelengths" | "run_ports">,
      PortsSourceSpec
    >
  >,
  Agree<
    FieldsThatDiffer<Omit<Static<typeof PortSchema>, "mode_spec">, Omit<PortSpec, "mode_spec">>
  >,
  Agree<FieldsThatDiffer<Static<typeof BoxSchema>, BoxSpec>>,
  Agree<FieldsThatDiffer<Static<typeof SphereSchema>, SphereSpec>>,
  Agree<FieldsThatDiffer<Static<typeof CylinderSchema>, CylinderSpec>>,
  Agree<FieldsThatDiffer<Static<typeof PolySlabSchema>, PolySlabSpec>>,
  Agree<FieldsThatDiffer<Static<typeof GdsStructureSchema>, GdsStructureSpec>>,
  Agree<
    FieldsThatDiffer<
      WithDefaults<Static<typeof FieldMonitorSchema>, Defaulted<"field_monitor">>,
      FieldMonitorSpec
    >
  >,
  Agree<FieldsThatDiffer<Static<typeof FluxMonitorSchema>, FluxMonitorSpec>>,
  Agree<
    FieldsThatDiffer<
      Omit<Static<typeof ModeMonitorSchema>, "mode_spec">,
      // `port` is the solver's own mark on a port's monitor (ports.ts), never in a request.
      Omit<ModeMonitorSpec, "mode_spec" | "port">
    >
  >,
  Agree<
    FieldsThatDiffer<
      WithDefaults<Static<typeof FarFieldMonitorSchema>, Defaulted<"far_field_monitor">>,
      FarFieldMonitorSpec
    >
  >,
  Agree<FieldsThatDiffer<Static<typeof UserMaterialSchema>, UserMaterialSpec>>,
  Agree<
    FieldsThatDiffer<
      WithDefaults<Static<typeof FdtdSettingsSchema>, Defaulted<"fdtd_settings">>,
      FdtdSettings
    >
  >,
];
