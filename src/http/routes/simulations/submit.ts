import type { Config } from "../../../config.js";
import { errors } from "../../../errors.js";
import { errorAsSent } from "../../../fabrication/gds-resolve.js";
import { hangUpSignal } from "../../hang-up.js";
import { SimulationRequestSchema } from "../../../schema/simulation.js";
import {
  ConflictBody,
  ErrorBody,
  SubmissionAck,
  UnprocessableBody,
  errorResponses,
} from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import {
  EXAMPLE_JOB,
  EXAMPLE_JOB_ID,
  EXAMPLE_REQUEST,
  OTHER_JOB_ID,
  invalidRequestExample,
} from "../../openapi-examples.js";
import { V1_ERRORS, bodyErrors, type OperationDoc } from "../../openapi-operation.js";

/** What the OpenAPI document says of a submission beyond its schema. */
function submitDoc(config: Config): OperationDoc {
  return {
    errors: [
      ...bodyErrors(config.limits.maxBodyBytes),
      invalidRequestExample(config),
      errors.activeJobConflict(OTHER_JOB_ID, 42, 1),
      errors.storeUnavailable("full"),
      ...V1_ERRORS,
    ],
    headers: { 202: ["Location"], 409: ["Retry-After"] },
    examples: {
      SimulationRequest: EXAMPLE_REQUEST,
      SubmissionAck: {
        job_id: EXAMPLE_JOB_ID,
        status: "QUEUED",
        created_at: EXAMPLE_JOB.created_at,
        message: `Simulation queued. Poll GET /v1/simulations/${EXAMPLE_JOB_ID} for its status.`,
      },
    },
  };
}

export function submitSimulation(app: App, { jobs, config, fabrication }: RouteDeps): void {
  app.post(
    "/v1/simulations",
    {
      schema: {
        operationId: "submitSimulation",
        summary: "Submit a simulation",
        description:
          "Validates the request and queues it. 202 means the job is durably stored. Structures of type gds are first replaced by polyslabs of the mapped layers of the caller's stored GDS II file (the stored job holds only polyslabs). While the caller has an active (QUEUED or RUNNING) job, the submission is refused with 409.",
        tags: ["simulations"],
        security: [{ bearerAuth: [] }],
        body: SimulationRequestSchema,
        response: {
          202: { ...SubmissionAck, description: "Accepted: the job is stored and QUEUED." },
          400: { ...ErrorBody, description: "Malformed JSON." },
          409: { ...ConflictBody, description: "A simulation is already running." },
          413: { ...ErrorBody, description: "Body too large." },
          415: { ...ErrorBody, description: "Content-Type is not application/json." },
          422: UnprocessableBody,
          ...errorResponses,
        },
        openapi: () => submitDoc(config),
      },
    },
    async (req, reply) => {
      const accountId = callerOf(req).accountId;
      // gds structures become polyslabs here, so the stored job needs no access to the file.
      // A caller that hangs up meanwhile stops the read and stores nothing: it never learns
      // the job's id.
      const request = await fabrication.resolveGdsStructures(
        accountId,
        req.body,
        hangUpSignal(reply),
      );
      const job = await jobs.submit(accountId, request).catch((err: unknown) => {
        throw errorAsSent(err, request);
      });
      reply.header("Location", `${config.baseUrl}/v1/simulations/${job.jobId}`);
      return reply.code(202).send({
        job_id: job.jobId,
        status: "QUEUED" as const,
        created_at: job.createdAt,
        message: `Simulation queued. Poll GET /v1/simulations/${job.jobId} for its status.`,
      });
    },
  );
}
