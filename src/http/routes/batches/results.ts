import Type from "typebox";
import { errors } from "../../../errors.js";
import { ErrorBody, NotReadyBody, errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import { EXAMPLE_BATCH_ID } from "../../openapi-examples.js";
import { V1_ERRORS } from "../../openapi-operation.js";
import { BATCH_ID_ERRORS, BatchIdParams } from "./status.js";

export function downloadBatchResults(app: App, { batches, config }: RouteDeps): void {
  app.get(
    "/v1/batches/:batch_id/results",
    {
      schema: {
        operationId: "downloadBatchResults",
        summary: "Download a batch's results as one file",
        description: `302 to a pre-signed storage address, valid ${config.downloadUrlTtlSeconds} s, of one HDF5 file in which every monitor (and the S-matrix) gains the sweep's dimensions first, named after the parameters (docs/result-format.md, "Batch result file"). Built when first asked for once the batch is COMPLETED; its SHA-256 is then the batch's checksum.`,
        tags: ["batches"],
        security: [{ bearerAuth: [] }],
        params: BatchIdParams,
        response: {
          302: Type.Null({ description: "Location: the pre-signed download address." }),
          409: { ...NotReadyBody, description: "The batch is not COMPLETED." },
          422: { ...ErrorBody, description: "The jobs' files cannot be stacked into one." },
          503: {
            ...ErrorBody,
            description:
              "Every writer of batch files is busy, a disk of the server is full, or its storage cannot be used (nothing was stored; try again).",
          },
          ...errorResponses,
          500: ErrorBody,
        },
        openapi: () => ({
          errors: [
            ...BATCH_ID_ERRORS,
            errors.batchResultsNotReady(EXAMPLE_BATCH_ID, "RUNNING", 60),
            errors.batchResultsNotReady(EXAMPLE_BATCH_ID, "FAILED", 30),
            errors.batchResultsUnavailable('parameter "x" has the name of monitors/line/x'),
            errors.batchResultsBusy(5),
            errors.diskFull(),
            errors.storageUnavailable(),
            ...V1_ERRORS,
          ],
          headers: {
            302: ["Location", "Cache-Control"],
            409: ["Retry-After"],
            503: ["Retry-After"],
          },
          success: {
            302: {
              description: `Found: \`Location\` is a pre-signed address of the batch's result file, valid ${config.downloadUrlTtlSeconds} s.`,
            },
          },
        }),
      },
    },
    async (req, reply) => {
      const url = await batches.resultDownloadUrl(callerOf(req).accountId, req.params.batch_id);
      return reply.header("Cache-Control", "no-store").redirect(url, 302);
    },
  );
}
