/**
 * `gds` structures resolved on this machine, for `emsim preview`: a structure whose `gds_url`
 * is a local file (a path relative to the simulation file, as `submit` takes it; see
 * local-gds.ts) is read and replaced by the polyslabs of its mapped layers, and its labels
 * give ports with their guides extended through the absorber, by the steps the server takes on
 * submission (fabrication/gds-resolve.ts). The preview then shows what a submission of the
 * uploaded file would run, without a server.
 *
 * The server reads a layout in a worker thread under a time and heap limit, because the file
 * is a stranger's; here it is the user's own, read in this process with the reader's default
 * limits.
 */
import { GdsError } from "../fabrication/gds/errors.js";
import { layerKey } from "../fabrication/gds-import.js";
import { importLayout, resolveGds } from "../fabrication/gds-resolve.js";
import type { FieldError } from "../errors.js";
import type { SimulationRequest } from "../schema/simulation.js";
import { isLocalGds, localGdsPath } from "./local-gds.js";
import { readInputFile } from "./input-file.js";
import { CliError, EXIT, InvalidRequestError } from "./output.js";

/**
 * The request with every `gds` structure whose `gds_url` is a local path (relative to
 * `simulationFile`'s folder) replaced by its polyslabs, and the ports its labels give appended
 * after the request's own, as the server resolves a stored file on submission; other
 * structures and their order are kept. A request without local gds structures is returned as
 * it is.
 * @throws InvalidRequestError naming `structures[i]…` where the server's 422 would; CliError
 *   for a file that cannot be read or is not a GDS II file the server would take
 */
export async function withLocalGdsResolved(
  request: SimulationRequest,
  simulationFile: string,
): Promise<SimulationRequest> {
  const fail = (errors: FieldError[]): never => {
    throw new InvalidRequestError(simulationFile, errors);
  };
  return resolveGds(
    request,
    {
      importLayout: async (g, path, labels) => {
        const file = localGdsPath(g.gds_url, simulationFile);
        // A file that cannot be read is the CLI's error (exit 2), named by the field.
        const bytes = new Uint8Array(await readInputFile(file, `${path}.gds_url: `));
        try {
          const layers = g.layers.map((l) => layerKey(l.layer, l.datatype));
          return importLayout({
            op: "import",
            bytes,
            cell: g.cell,
            layers,
            ...(labels ? { labels } : {}),
          });
        } catch (err) {
          if (!(err instanceof GdsError)) throw err;
          throw new CliError(`${file} (${path}): ${err.message}`, EXIT.invalid);
        }
      },
      fail,
    },
    (s) => !isLocalGds(s),
  );
}
