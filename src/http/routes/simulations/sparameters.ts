import Type from "typebox";
import { errors } from "../../../errors.js";
import { touchstone, touchstoneExtension } from "../../../results/touchstone.js";
import { JobIdParams, NotReadyBody, errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import { EXAMPLE_JOB_ID, EXAMPLE_S_MATRIX } from "../../openapi-examples.js";
import { JOB_ID_ERRORS, RESULTS_NOT_READY, V1_ERRORS } from "../../openapi-operation.js";

const SMatrixSchema = Type.Object(
  {
    ports: Type.Array(Type.String(), { description: "port@mode, the rows and columns of s." }),
    inputs: Type.Array(Type.String(), { description: "The port@mode inputs that were run." }),
    wavelengths_m: Type.Array(Type.Union([Type.Number(), Type.Null()])),
    s: Type.Array(
      Type.Array(
        Type.Array(Type.Union([Type.Array(Type.Union([Type.Number(), Type.Null()])), Type.Null()])),
      ),
      {
        description:
          "s[out][in][wavelength] = [re, im] (s[1][0] is S21); null where the input was not run.",
      },
    ),
    n_eff: Type.Array(Type.Array(Type.Union([Type.Number(), Type.Null()]))),
  },
  { $id: "SMatrix", title: "SMatrix", additionalProperties: false },
);

const Query = Type.Object(
  {
    format: Type.Optional(
      Type.Union([Type.Literal("json"), Type.Literal("touchstone")], {
        description:
          "json (default): the S-matrix; touchstone: a Touchstone 1.1 file (text/plain).",
      }),
    ),
  },
  { additionalProperties: false },
);

export function sParametersRoute(app: App, { jobs }: RouteDeps): void {
  app.get(
    "/v1/simulations/:job_id/sparameters",
    {
      schema: {
        operationId: "getSParameters",
        summary: "Get a ports job's S-parameters",
        description:
          'The scattering matrix of a COMPLETED job with source_type "ports": JSON (default) or, with ?format=touchstone, a Touchstone 1.1 file (`# HZ S RI R 50`, frequency ascending, one port per port@mode).',
        tags: ["simulations"],
        security: [{ bearerAuth: [] }],
        params: JobIdParams,
        querystring: Query,
        response: {
          200: SMatrixSchema,
          409: { ...NotReadyBody, description: "The job is not COMPLETED." },
          ...errorResponses,
        },
        openapi: () => ({
          errors: [
            ...JOB_ID_ERRORS,
            RESULTS_NOT_READY,
            errors.noSParameters(EXAMPLE_JOB_ID),
            errors.validation([
              { path: "query.format", message: 'must be one of "json", "touchstone"' },
            ]),
            ...V1_ERRORS,
          ],
          headers: { 409: ["Retry-After"], 200: ["Content-Disposition"] },
          success: {
            200: {
              description:
                "The S-matrix (JSON), or with ?format=touchstone the Touchstone 1.1 file as text/plain.",
              alsoAs: [{ mediaType: "text/plain", schema: { type: "string" } }],
            },
          },
          examples: { SMatrix: EXAMPLE_S_MATRIX },
        }),
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const id = req.params.job_id;
      const sm = await jobs.sParameters(caller.accountId, id, caller.reads);
      if (req.query.format !== "touchstone") return sm;
      const name = `emsim-${id}${touchstoneExtension(sm.ports.length)}`;
      return reply
        .type("text/plain; charset=utf-8")
        .header("Content-Disposition", `attachment; filename="${name}"`)
        .send(touchstone(sm, `emsim S-parameters of job ${id}`) as never);
    },
  );
}
