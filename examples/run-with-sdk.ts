/**
 * Runs a simulation file with the SDK: submit (waiting for a free slot), follow the progress,
 * download the verified result. Outside this repository, import from "emsim/client".
 *
 *   EMSIM_API_KEY=emsim_… node --import tsx examples/run-with-sdk.ts examples/plane-wave-vacuum.json
 */
import { readFile } from "node:fs/promises";
import { EmsimApiError, EmsimClient, type SimulationRequest } from "../src/client/index.js";

const [file = "examples/plane-wave-vacuum.json", out = "result.h5"] = process.argv.slice(2);
const client = new EmsimClient({
  baseUrl: process.env.EMSIM_BASE_URL ?? "http://127.0.0.1:8080",
  apiKey: process.env.EMSIM_API_KEY ?? "",
});
const request = JSON.parse(await readFile(file, "utf8")) as SimulationRequest;

try {
  const { job, file: result } = await client.run(request, {
    out,
    queue: true,
    onQueued: (q) => console.error(`job ${q.activeJobId} is active; waiting…`),
    onSubmitted: (ack) => console.error(`submitted ${ack.job_id}`),
    onProgress: (j) => {
      const p = j.progress;
      if (p) console.error(`${j.status} step ${p.step}/${p.total_steps}`);
    },
  });
  console.log(`${job.job_id} ${job.status} in ${job.duration_seconds} s`);
  console.log(`${result.path}: ${result.bytes} bytes, sha256 ${result.sha256} (verified)`);
} catch (err) {
  if (err instanceof EmsimApiError && err.status === 422) {
    for (const e of err.fieldErrors) console.error(`${e.path}: ${e.message}`);
    process.exitCode = 6;
  } else {
    throw err;
  }
}
