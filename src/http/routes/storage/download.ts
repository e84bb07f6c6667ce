/**
 * The local storage service's download address: `{storage_url}/objects/<key>` with an expiry
 * and an HMAC signature (src/storage/signing.ts). No API key: the signature is the credential.
 * Serves the file with Content-Type, Content-Disposition, Content-Length, a strong ETag and
 * Last-Modified, and single Range requests (206 / 416) under If-Range, so interrupted
 * downloads can resume without splicing two files. An address missing a part, or with one
 * malformed, is refused as a bad signature is (403), whatever part it lacks.
 */
import Type from "typebox";
import { ApiError, errors } from "../../../errors.js";
import type { LocalFileStorage } from "../../../storage/local.js";
import type { StoredObject } from "../../../storage/types.js";
import { sendApiError } from "../../error-handler.js";
import { ErrorBody } from "../../schemas.js";
import type { App } from "../../types.js";
import { ANY_ERRORS, type OperationDoc, type RawBody } from "../../openapi-operation.js";

/**
 * A single `bytes=` range against a size: the bytes to send, null for the whole file, "bad"
 * for a range past the end (416). As RFC 9110 §14.2 has it, a Range in another unit is
 * ignored, and so are what a server may ignore: several ranges (no multipart answers here)
 * and a range that is none (`bytes=abc`, `bytes=5-2`).
 */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | "bad" {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    return suffix === 0 || size === 0
      ? "bad"
      : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  if (m[2] !== "" && Number(m[2]) < start) return null;
  if (start >= size) return "bad";
  return { start, end: m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1) };
}

/**
 * A stored object's validators: objects are written once under their key, so its size and
 * write time name its bytes (a strong entity tag). None where the backend gives no time.
 */
function validators(object: StoredObject): { etag: string; lastModified: string } | null {
  if (object.modifiedMs === undefined) return null;
  const time = Math.floor(object.modifiedMs);
  return {
    etag: `"${object.bytes.toString(16)}-${time.toString(16)}"`,
    lastModified: new Date(time).toUTCString(),
  };
}

/**
 * Whether a Range may be served (RFC 9110 §13.1.5): without If-Range, or with one naming this
 * object's entity tag (a weak tag never matches) or its Last-Modified date; else the whole
 * file goes out, as if no Range had been sent.
 */
export function rangeApplies(
  ifRange: string | undefined,
  current: { etag: string; lastModified: string } | null,
): boolean {
  if (ifRange === undefined) return true;
  if (!current) return false;
  const v = ifRange.trim();
  if (v.startsWith('"') || v.startsWith("W/")) return v === current.etag;
  const at = Date.parse(v);
  return Number.isFinite(at) && at === Date.parse(current.lastModified);
}

/** The address's signed parts, or null where one is missing or malformed. */
function addressParts(query: {
  expires?: string;
  name?: string;
  signature?: string;
}): { expires: number; name: string; signature: string } | null {
  const { expires, name, signature } = query;
  if (expires === undefined || !/^[0-9]{1,12}$/.test(expires)) return null;
  if (name === undefined || name.length > 200) return null;
  if (signature === undefined || signature.length > 100) return null;
  return { expires: Number(expires), name, signature };
}

/**
 * The address's parts once its signature is checked (`query` null: a query the schema
 * refused); else the 403 of a bad, malformed or expired address.
 */
function signedAddress(
  storage: LocalFileStorage,
  key: string,
  query: Parameters<typeof addressParts>[0] | null,
): { expires: number; name: string; signature: string } {
  const parts = query ? addressParts(query) : null;
  if (!parts) throw errors.forbidden("The download address signature is invalid.");
  const check = storage.checkSignature(key, parts.expires, parts.name, parts.signature);
  if (check === "invalid") throw errors.forbidden("The download address signature is invalid.");
  if (check === "expired") {
    throw errors.forbidden(
      key.endsWith(".gds")
        ? "The download address has expired; the same account may still pass it to /v1/fabrication/drc and /recipe."
        : "The download address has expired; request GET /v1/simulations/{job_id}/results again.",
    );
  }
  return parts;
}

const HDF5_BODY: RawBody = {
  mediaType: "application/x-hdf5",
  schema: { type: "string", format: "binary", description: "The HDF5 result file." },
};

/** What the OpenAPI document says of the download beyond its schema. */
const downloadDoc = (): OperationDoc => ({
  errors: [
    errors.forbidden("The download address signature is invalid."),
    errors.forbidden(
      "The download address has expired; request GET /v1/simulations/{job_id}/results again.",
    ),
    new ApiError(404, "object_not_found", "The stored result no longer exists."),
    new ApiError(416, "range_not_satisfiable", "The file has 1048576 bytes."),
    ...ANY_ERRORS,
  ],
  headers: {
    200: ["Accept-Ranges", "Content-Length", "Content-Disposition", "ETag", "Last-Modified"],
    206: [
      "Accept-Ranges",
      "Content-Length",
      "Content-Range",
      "Content-Disposition",
      "ETag",
      "Last-Modified",
    ],
    416: ["Content-Range"],
  },
  success: {
    200: { description: "The whole file.", body: HDF5_BODY },
    206: { description: "The requested byte range (one `bytes=` range).", body: HDF5_BODY },
  },
  wildcard: {
    name: "key",
    description: "The stored object's key: part of the address the API redirects to.",
  },
});

/**
 * Mounted by the composition root with the local backend only (S3 serves its own pre-signed
 * addresses); the backend owns the signing secret and checks the signature.
 */
export function storageDownload(app: App, storage: LocalFileStorage, storageUrl: string): void {
  const prefix = new URL(storageUrl).pathname.replace(/\/$/, "");
  app.route({
    method: ["GET", "HEAD"],
    url: `${prefix}/objects/*`,
    schema: {
      operationId: "downloadStoredResult",
      summary: "Download a stored result (pre-signed address)",
      security: [],
      tags: ["storage"],
      // Checked by the handler, which refuses a missing or malformed part as it refuses a bad
      // signature (403), not with a 422 that would spell out the scheme.
      querystring: Type.Object({
        expires: Type.Optional(Type.String({ description: "Unix time the address expires at." })),
        name: Type.Optional(
          Type.String({ description: "The file name the download is saved as." }),
        ),
        signature: Type.Optional(Type.String({ description: "The address's HMAC signature." })),
      }),
      response: {
        200: Type.Unknown({
          description:
            "The file: HDF5 results (application/x-hdf5) or GDS II (application/octet-stream).",
        }),
        206: Type.Unknown({ description: "The requested byte range." }),
        403: ErrorBody,
        404: ErrorBody,
        416: ErrorBody,
      },
      openapi: downloadDoc,
    },
    // A query the schema refuses (a part given twice) is a malformed address: a 403, below.
    attachValidation: true,
    handler: async (req, reply) => {
      const key = (req.params as { "*": string })["*"];
      const { name } = signedAddress(storage, key, req.validationError ? null : req.query);
      const object = await storage.stat(key);
      if (!object)
        throw new ApiError(404, "object_not_found", "The stored result no longer exists.");
      const current = validators(object);
      const ifRange = req.headers["if-range"];
      const applies = rangeApplies(Array.isArray(ifRange) ? ifRange.join(",") : ifRange, current);
      const range = parseRange(applies ? req.headers.range : undefined, object.bytes);
      reply.header("Accept-Ranges", "bytes");
      if (current) reply.header("ETag", current.etag).header("Last-Modified", current.lastModified);
      reply.header(
        "Content-Type",
        key.endsWith(".gds") ? "application/octet-stream" : "application/x-hdf5",
      );
      reply.header("Cache-Control", "private, no-store");
      if (range === "bad") {
        reply.header("Content-Range", `bytes */${object.bytes}`);
        return sendApiError(
          reply,
          new ApiError(416, "range_not_satisfiable", `The file has ${object.bytes} bytes.`),
        );
      }
      reply.header(
        "Content-Disposition",
        `attachment; filename="${name.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      );
      if (range) {
        reply.code(206);
        reply.header("Content-Range", `bytes ${range.start}-${range.end}/${object.bytes}`);
        reply.header("Content-Length", String(range.end - range.start + 1));
      } else {
        reply.header("Content-Length", String(object.bytes));
      }
      if (req.method === "HEAD") return reply.send();
      return reply.send(await storage.read(key, range ?? undefined));
    },
  });
}
