/**
 * The set-up preview (POST /v1/simulations/preview, DESIGN §12): the request — a simulation,
 * the planes to show and how many samples a plane may have along each axis — and the answer:
 * per plane, the permittivity the run steps there, the material at each sample and the
 * outlines of every object the plane cuts; the set-up's warnings; the run's estimate.
 *
 * The simulation is an object here and is checked by the simulation's own schema in the
 * preview (src/preview/), so that an error names it as the body does (`simulation.domain.size`),
 * as a batch's base simulation is.
 */
import Type, { type Static } from "typebox";
import { MAX_PREVIEW_SAMPLES, MAX_PREVIEW_TOTAL_SAMPLES } from "../solver/index.js";
import { EstimateSchema } from "./responses.js";
import { withDefault } from "./simulation.js";

/** Samples per axis of a plane unless the request says otherwise. */
export const DEFAULT_PREVIEW_SAMPLES = 400;

/** The most planes one preview shows. */
export const MAX_PREVIEW_PLANES = 6;

const AxisName = Type.Union([Type.Literal("x"), Type.Literal("y"), Type.Literal("z")]);

export const PreviewPlaneSchema = Type.Object(
  {
    normal: AxisName,
    position: Type.Number({
      description:
        "Where the plane crosses its normal axis (metres); the preview shows the grid's node plane nearest it.",
    }),
  },
  { additionalProperties: false, title: "PreviewPlane" },
);

export const PreviewRequestSchema = Type.Object(
  {
    simulation: Type.Unsafe<Record<string, unknown>>({
      type: "object",
      additionalProperties: true,
      description:
        "The simulation: a SimulationRequest, checked as a submission is (errors name it `simulation.…`).",
    }),
    planes: Type.Optional(
      Type.Array(PreviewPlaneSchema, {
        minItems: 1,
        maxItems: MAX_PREVIEW_PLANES,
        description:
          "The planes to show. Default the three planes through the origin (x = 0, y = 0, z = 0).",
      }),
    ),
    max_samples: Type.Optional(
      Type.Integer({
        minimum: 2,
        maximum: MAX_PREVIEW_SAMPLES,
        description: withDefault(
          `The most samples along each axis of a plane: a plane with more cells shows evenly spaced cells of it (sampled, not averaged), both edges included. The planes together may hold at most ${MAX_PREVIEW_TOTAL_SAMPLES} samples.`,
          DEFAULT_PREVIEW_SAMPLES,
        ),
      }),
    ),
  },
  {
    additionalProperties: false,
    $id: "PreviewRequest",
    title: "PreviewRequest",
    description:
      "A simulation and the planes on which to show its set-up as the solver sees it. Lengths in metres.",
  },
);

export type PreviewRequest = Static<typeof PreviewRequestSchema>;

const Ring = Type.Array(Type.Tuple([Type.Number(), Type.Number()]), {
  description:
    "A closed polygon on the plane, (first, second) in metres, the last point joined to the first; two points are a segment (a plane seen edge-on), one a point.",
});

export const PreviewObjectSchema = Type.Object(
  {
    kind: Type.Union([
      Type.Literal("structure"),
      Type.Literal("source"),
      Type.Literal("monitor"),
      Type.Literal("port"),
      Type.Literal("mesh_override"),
      Type.Literal("pml"),
      Type.Literal("symmetry"),
    ]),
    name: Type.String({
      description:
        "The monitor's or port's name; `structures[2]`, `mesh_overrides[0]`; the source's kind and plane; `pml -x`; `x = 0 (pec)`.",
    }),
    outline: Type.Array(Ring, {
      description:
        "Its cross-section with the plane: one ring, or several (a polyslab's pieces and holes, by the even-odd rule).",
    }),
    material: Type.Optional(Type.String({ description: "A structure's material." })),
    direction: Type.Optional(
      Type.Array(Type.Number(), {
        minItems: 3,
        maxItems: 3,
        description:
          "Where a source injects and a port leads into the device: a unit vector (x, y, z).",
      }),
    ),
  },
  { additionalProperties: false, title: "PreviewObject" },
);

const grid = (description: string) => Type.Array(Type.Array(Type.Number()), { description });

export const PreviewPlaneResultSchema = Type.Object(
  {
    normal: AxisName,
    position: Type.Number({ description: "The node plane shown (metres)." }),
    // Strings, not AxisName: fast-json-stringify refuses a tuple of unions on serialising.
    axes: Type.Tuple([Type.String(), Type.String()], {
      description: "The in-plane axes (first, second): (y, z), (x, z) or (x, y).",
    }),
    cells: Type.Tuple([Type.Integer(), Type.Integer()], {
      description:
        "The grid's cells along each in-plane axis on the plane, absorber included (both halves of a mirrored axis); `coords` has one sample per cell unless there are more than max_samples.",
    }),
    extent: Type.Record(Type.String(), Type.Tuple([Type.Number(), Type.Number()]), {
      description: "The grid's extent along each in-plane axis, absorber included (metres).",
    }),
    coords: Type.Record(Type.String(), Type.Array(Type.Number()), {
      description:
        "The samples along the first and the second axis (metres): each the low corner (node) of its Yee cell, where the cell's three E components meet.",
    }),
    eps_real: grid(
      "Re ε at the source wavelength, eps_real[i][j] at (coords[first][i], coords[second][j]): the cell's three E components as the run steps them (after sub-cell averaging), combined as 3 / Σ 1/ε_c (Meep's get_epsilon); perfect conductors left out of the sum, a cell of perfect conductor only reads 1. 7 significant digits.",
    ),
    eps_imag: grid("Im ε, as eps_real."),
    material: grid(
      "The material at each sample point, an index into `materials`: the last structure holding the point, else 0 (the background).",
    ),
    pec: grid(
      "How many of each cell's three E components are a perfect conductor's, which the run holds at zero (0 to 3): a PEC film thinner than a cell holds some of them without holding the sample point.",
    ),
    objects: Type.Array(PreviewObjectSchema, {
      description:
        "Every object the plane cuts, in drawing order: absorber, structures, mesh overrides, monitors, ports, sources, symmetry planes.",
    }),
  },
  { additionalProperties: false, title: "PreviewPlaneResult" },
);

export const PreviewWarningSchema = Type.Object(
  {
    code: Type.Union([
      Type.Literal("monitor_in_absorber"),
      Type.Literal("outside_domain"),
      Type.Literal("thin_film"),
      Type.Literal("port_facing_out"),
    ]),
    path: Type.String({ description: "The field it is about, e.g. `simulation.monitors[0]`." }),
    message: Type.String(),
  },
  { additionalProperties: false, title: "PreviewWarning" },
);

export const PreviewResponseSchema = Type.Object(
  {
    planes: Type.Array(PreviewPlaneResultSchema),
    materials: Type.Array(
      Type.Object(
        {
          name: Type.String(),
          kind: Type.Union(
            [Type.Literal("dielectric"), Type.Literal("metal"), Type.Literal("pec")],
            {
              description: "pec: a perfect conductor; metal: Re ε < 0 at the source wavelength.",
            },
          ),
        },
        { additionalProperties: false },
      ),
      { description: "The background (vacuum) first, then each structure's material." },
    ),
    warnings: Type.Array(PreviewWarningSchema, {
      description:
        "What the set-up probably does not mean: a monitor in the absorber, an object beyond the domain, a film thinner than two cells.",
    }),
    estimate: EstimateSchema,
  },
  {
    additionalProperties: false,
    $id: "PreviewResponse",
    title: "PreviewResponse",
    description: "The set-up as the solver sees it, on the planes asked for.",
  },
);

export type PreviewResponse = Static<typeof PreviewResponseSchema>;
export type PreviewPlaneResult = Static<typeof PreviewPlaneResultSchema>;
export type PreviewObject = Static<typeof PreviewObjectSchema>;
