import { errors } from "../../../errors.js";
import { UploadGdsResponseSchema } from "../../../schema/fabrication.js";
import { ErrorBody, errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import { FABRICATION_BUSY, GDS_INVALID, LAYOUT_TOO_LARGE, fabricationErrors } from "./schemas.js";
import { V1_ERRORS } from "../../openapi-operation.js";
import { hangUpSignal } from "../../hang-up.js";

/**
 * Upload of a GDS II file (application/octet-stream, at most config.fabrication.maxGdsBytes).
 * Registered in its own plugin scope with the binary body parser, so no other route accepts
 * binary bodies.
 */
export function uploadGdsRoute(app: App, { fabrication, config }: RouteDeps): void {
  const limit = config.fabrication.maxGdsBytes;
  // Refuse other content types before any of the body is read.
  app.addHook("onRequest", (req, _reply, done) => {
    const type = req.headers["content-type"];
    if (!type || !/^application\/octet-stream\b/i.test(type)) {
      done(errors.unsupportedMediaType(type, "application/octet-stream"));
    } else {
      done();
    }
  });
  app.addContentTypeParser(
    "application/octet-stream",
    { parseAs: "buffer", bodyLimit: limit },
    (_req, body, done) => done(null, body),
  );
  app.post(
    "/v1/fabrication/gds",
    {
      bodyLimit: limit,
      schema: {
        operationId: "uploadGds",
        summary: "Upload a GDS II file",
        description: `Reads a GDS II file made elsewhere (KLayout, gdstk, gdsfactory; body: the file as application/octet-stream, at most ${limit} bytes), refuses what cannot be read with 422 and a reason, and stores it for /v1/fabrication/drc and /recipe. BOUNDARY, BOX, PATH, SREF and AREF are read (references flattened); TEXT labels are read but not drawn (a simulation's gds structure can take its ports from them); NODE is ignored.`,
        tags: ["fabrication"],
        security: [{ bearerAuth: [] }],
        response: {
          201: UploadGdsResponseSchema,
          413: { ...ErrorBody, description: "The file is larger than the limit." },
          ...fabricationErrors,
          ...errorResponses,
        },
        openapi: () => ({
          errors: [
            errors.bodyTooLarge(config.limits.maxBodyBytes),
            errors.unsupportedMediaType("application/json"),
            GDS_INVALID,
            LAYOUT_TOO_LARGE,
            FABRICATION_BUSY,
            ...V1_ERRORS,
          ],
          requestBody: {
            description: `The GDS II file's bytes, at most ${limit}.`,
            mediaType: "application/octet-stream",
            // Raw bytes, as code generators read them (openapi-typescript: a string, or a Blob).
            schema: { type: "string", format: "binary" },
          },
          success: { 201: { description: "The file is stored; its address and contents." } },
        }),
      },
    },
    async (req, reply) => {
      const body = req.body as Buffer;
      const bytes = new Uint8Array(body);
      const result = await fabrication.upload(callerOf(req).accountId, bytes, hangUpSignal(reply));
      return reply.code(201).send(result);
    },
  );
}
