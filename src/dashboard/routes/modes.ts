/**
 * The Modes page (views/modes.ts): a signed-in user's simulation request and plane, solved by
 * the API's ModeService (the same checks, limits and errors as POST /v1/modes), answered with
 * the table and a picture of each mode. Refusals re-render the form with the reasons.
 */
import type { FastifyInstance } from "fastify";
import { ApiError, errors } from "../../errors.js";
import type { ModesResponse } from "../../modes/response.js";
import { modePlotPng } from "../../plot/mode-plot.js";
import type { ModesRequest } from "../../schema/modes.js";
import { parsePlaneSpec, PlaneSpecError } from "../../schema/plane-spec.js";
import type { StructureSpec } from "../../solver/index.js";
import { hangUpSignal } from "../../http/hang-up.js";
import { usesForbiddenKey } from "../../http/json-body.js";
import { field, type Dashboard } from "../context.js";
import { EMPTY_MODES_FORM, modesBody, type ModesForm, type ModesView } from "../views/modes.js";

/** A mistake in the form, told back beside it. */
class FormProblem extends Error {}

/** Modes drawn at most (each picture is about 30 kB inlined in the page). */
const MAX_PICTURES = 6;

function formOf(body: unknown): ModesForm {
  return {
    request: field(body, "request"),
    plane: field(body, "plane").trim(),
    wavelength_um: field(body, "wavelength_um").trim(),
    num_modes: field(body, "num_modes").trim() || "1",
  };
}

/** The API's mode request from the form: the pasted request's geometry and the plane. */
function modesRequestOf(form: ModesForm): ModesRequest {
  let sim: { domain?: { size?: unknown }; structures?: unknown; materials?: unknown };
  try {
    sim = JSON.parse(form.request) as typeof sim;
  } catch (err) {
    throw new FormProblem(`The request is not JSON: ${(err as Error).message}`);
  }
  if (usesForbiddenKey(form.request, sim)) throw new FormProblem(errors.forbiddenJsonKey().detail);
  if (typeof sim !== "object" || sim === null || !Array.isArray(sim.domain?.size)) {
    throw new FormProblem("The request needs a domain with its size, as a simulation request.");
  }
  const typed = form.wavelength_um?.trim();
  if (typed && !(Number(typed) > 0 && Number.isFinite(Number(typed)))) {
    throw new FormProblem(`The wavelength must be a positive number of µm, not '${typed}'.`);
  }
  const wavelengthM = typed
    ? Number(typed) * 1e-6
    : (sim as { source?: { wavelength?: unknown } }).source?.wavelength;
  if (typeof wavelengthM !== "number" || !(wavelengthM > 0)) {
    throw new FormProblem("Give a wavelength in µm (the request has no source wavelength).");
  }
  const numModes = Number(form.num_modes);
  if (!Number.isInteger(numModes) || numModes < 1 || numModes > 20) {
    throw new FormProblem("Modes must be a whole number from 1 to 20.");
  }
  let plane: ModesRequest["plane"];
  try {
    plane = parsePlaneSpec(form.plane, sim.domain.size as number[]);
  } catch (err) {
    if (err instanceof PlaneSpecError) throw new FormProblem(`Plane: ${err.message}`);
    throw err;
  }
  return {
    domain: sim.domain as ModesRequest["domain"],
    ...(sim.structures !== undefined
      ? { structures: sim.structures as ModesRequest["structures"] }
      : {}),
    ...(sim.materials !== undefined
      ? { materials: sim.materials as ModesRequest["materials"] }
      : {}),
    plane,
    wavelengths: [wavelengthM],
    mode_spec: { num_modes: numModes },
    include_fields: true,
  };
}

/** The reasons of a refusal, one line each (a 422's fields, or its detail). */
function reasonsOf(err: ApiError): string[] {
  const fieldErrors = err.extra.errors as { path: string; message: string }[] | undefined;
  return fieldErrors?.length ? fieldErrors.map((e) => `${e.path}: ${e.message}`) : [err.detail];
}

/** Each mode's |E| over the plane, as base64 PNG. */
function picturesOf(answer: ModesResponse, request: ModesRequest): ModesView["pictures"] {
  const structures = (request.structures ?? []).filter((s) => s.type !== "gds") as StructureSpec[];
  return answer.modes.slice(0, MAX_PICTURES).map((mode) => ({
    modeIndex: mode.mode_index,
    pngBase64: modePlotPng(answer, mode, { structures, size: 420 }).toString("base64"),
  }));
}

export function modesRoutes(app: FastifyInstance, d: Dashboard): void {
  const { modes } = d.deps;

  app.get("/modes", async (req, reply) => {
    d.requireAccount(req);
    const csrf = d.csrfFor(req, reply);
    return d.sendPage(reply, req, {
      title: "Modes",
      section: "modes",
      body: modesBody({ csrf, form: EMPTY_MODES_FORM }),
    });
  });

  app.post("/modes", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const csrf = d.csrfFor(req, reply);
    const form = formOf(req.body);
    const page = (status: number, extra: Partial<ModesView>) =>
      d.sendPage(reply, req, {
        title: "Modes",
        section: "modes",
        status,
        wide: extra.answer !== undefined,
        body: modesBody({ csrf, form, ...extra }),
      });
    let request: ModesRequest;
    try {
      request = modesRequestOf(form);
    } catch (err) {
      if (err instanceof FormProblem) return page(400, { errors: [err.message] });
      throw err;
    }
    let answer: ModesResponse;
    try {
      // A browser that leaves the page before the answer stops the solve (http/hang-up.ts).
      answer = await modes.solve(account.id, request, hangUpSignal(reply));
    } catch (err) {
      if (err instanceof ApiError && err.statusCode < 500) {
        return page(err.statusCode, { errors: reasonsOf(err) });
      }
      if (err instanceof ApiError && err.code === "modes_busy") {
        return page(503, { errors: ["The mode solver is busy; try again in a few seconds."] });
      }
      throw err;
    }
    return page(200, { answer, pictures: picturesOf(answer, request) });
  });
}
