/**
 * Batches through the HTTP API on the embedded service (DESIGN §11, issue #30): a sweep runs
 * as one job per variant in variant order, each an ordinary job that names its batch; the 409
 * rule holds for batches both ways; cancelling stops the running job and queues nothing more;
 * every bad input is a 422 naming the parameter or the variant, with nothing queued.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import h5wasm, { type Dataset } from "h5wasm/node";
import {
  call,
  longSimulation,
  smallSimulation,
  startService,
  tempDir,
  waitForStatus,
  type TestService,
} from "../helpers/service.js";
import type { BatchRecord } from "../../src/schema/batch.js";

let svc: TestService;
const dir = tempDir();

/** Follows a results redirect and saves the file; returns its path. */
async function downloadTo(path: string, name: string): Promise<string> {
  const res = await fetch(`${svc.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(res.status, 200, `${path}: ${res.status}`);
  const file = join(dir, name);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
let key: string;
before(async () => {
  // A 10-hour bound on a batch's total estimate, which 2000 long jobs pass (the last 422 case).
  svc = await startService({}, { EMSIM_MAX_BATCH_SECONDS: "36000" });
  key = await svc.newKey("batches@example.com");
});
after(async () => svc.close());

const thickness = {
  name: "thickness",
  path: "/structures/0/size/2",
  values: [0.3e-6, 0.5e-6, 0.7e-6],
};

async function waitForBatch(
  id: string,
  statuses: string[],
  timeoutMs = 120_000,
  as = key,
): Promise<BatchRecord> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(svc.baseUrl, "GET", `/v1/batches/${id}`, { key: as });
    assert.equal(res.status, 200);
    if (statuses.includes(String(res.body.status))) return res.body as unknown as BatchRecord;
    if (Date.now() > end) throw new Error(`batch ${id} still ${String(res.body.status)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test("a sweep runs one job per variant, in order; each job names its batch and values", async () => {
  const sub = await call(svc.baseUrl, "POST", "/v1/batches", {
    key,
    body: { simulation: smallSimulation(), parameters: [thickness], metadata: { run: 1 } },
  });
  assert.equal(sub.status, 202, sub.text);
  assert.equal(sub.body.status, "QUEUED");
  assert.equal(sub.body.job_count, 3);
  const id = String(sub.body.batch_id);
  assert.equal(sub.headers.get("location"), `${svc.baseUrl}/v1/batches/${id}`);

  const done = await waitForBatch(id, ["COMPLETED", "FAILED"]);
  assert.equal(done.status, "COMPLETED");
  assert.deepEqual(done.counts, { QUEUED: 0, RUNNING: 0, COMPLETED: 3, FAILED: 0 });
  assert.equal(done.progress.fraction, 1);
  assert.deepEqual(done.parameters, [thickness]);
  assert.deepEqual(done.metadata, { run: 1 });
  assert.equal(done.result_url, `${svc.baseUrl}/v1/batches/${id}/results`);
  const jobs = done.jobs;
  assert.deepEqual(
    jobs.map((j) => [j.index, j.parameters.thickness]),
    thickness.values.map((v, i) => [i, v]),
  );
  const records = await Promise.all(
    jobs.map(
      async (j) => (await call(svc.baseUrl, "GET", `/v1/simulations/${j.job_id}`, { key })).body,
    ),
  );
  records.forEach((r, i) => {
    assert.equal(r.batch_id, id);
    assert.deepEqual(r.parameters, { thickness: thickness.values[i] });
    const request = JSON.parse(JSON.stringify(r)) as Record<string, unknown>;
    assert.equal(request.status, "COMPLETED");
  });
  // Run one after another (parallelism 1): each started after the one before finished.
  for (let i = 1; i < records.length; i++) {
    assert.ok(String(records[i]!.started_at) >= String(records[i - 1]!.finished_at));
  }
  // Six first requests at once wait for the one build (there are two writers: four got 503).
  const firsts = await Promise.all(
    Array.from({ length: 6 }, () => call(svc.baseUrl, "GET", `/v1/batches/${id}/results`, { key })),
  );
  assert.deepEqual(
    firsts.map((r) => r.status),
    [302, 302, 302, 302, 302, 302],
  );
  const files = firsts.map((r) => new URL(r.headers.get("location")!).pathname);
  assert.equal(new Set(files).size, 1, "one file, built once");
  // One file back: the monitor gains the sweep's dimension, each variant bit for bit its job's.
  const batchFile = await downloadTo(`/v1/batches/${id}/results`, "batch.h5");
  const after = (await call(svc.baseUrl, "GET", `/v1/batches/${id}`, { key })).body;
  assert.equal(sha256(batchFile), after.checksum, "the batch's checksum is its file's");
  await h5wasm.ready;
  const merged = new h5wasm.File(batchFile, "r");
  try {
    assert.equal(merged.attrs.format!.value, "emsim-batch-result");
    assert.deepEqual(
      Array.from((merged.get("monitors/line/thickness") as Dataset).value as Float64Array),
      thickness.values,
    );
    const ex = merged.get("monitors/line/Ex") as Dataset;
    assert.equal(ex.shape![0], 3);
    for (const [i, j] of jobs.entries()) {
      const own = new h5wasm.File(
        await downloadTo(`/v1/simulations/${j.job_id}/results`, `${i}.h5`),
        "r",
      );
      try {
        const mine = (own.get("monitors/line/Ex") as Dataset).value as unknown[];
        const stacked = (ex.value as unknown[]).slice(i * mine.length, (i + 1) * mine.length);
        assert.deepEqual(stacked, mine, `variant ${i}`);
      } finally {
        own.close();
      }
    }
  } finally {
    merged.close();
  }
  const again = await call(svc.baseUrl, "GET", `/v1/batches/${id}/results`, { key });
  assert.equal(again.status, 302);

  const list = await call(svc.baseUrl, "GET", "/v1/batches?limit=1", { key });
  assert.equal((list.body.batches as { batch_id: string }[])[0]!.batch_id, id);
  assert.equal((list.body.batches as Record<string, unknown>[])[0]!.jobs, undefined);
});

test("identical work runs once: the same batch again and a variant run before run no solver", async () => {
  // (A list naming a value twice is a 422: batches/variants.test.ts.)
  const body = {
    simulation: smallSimulation(),
    parameters: [{ ...thickness, values: [0.3e-6, 0.4e-6] }],
  };
  const first = await call(svc.baseUrl, "POST", "/v1/batches", { key, body });
  assert.equal(first.status, 202, first.text);
  const one = await waitForBatch(String(first.body.batch_id), ["COMPLETED"]);
  const records = async (b: BatchRecord) =>
    Promise.all(
      b.jobs.map(
        async (j) => (await call(svc.baseUrl, "GET", `/v1/simulations/${j.job_id}`, { key })).body,
      ),
    );
  const ran = await records(one);
  // The same batch again: every job answered from the first batch's results.
  const again = await call(svc.baseUrl, "POST", "/v1/batches", { key, body });
  assert.equal(again.status, 202);
  const two = await waitForBatch(String(again.body.batch_id), ["COMPLETED"]);
  const reused = await records(two);
  reused.forEach((r, i) => {
    assert.equal(r.reused_result_of, ran[i]!.reused_result_of ?? ran[i]!.job_id, `job ${i}`);
    assert.equal(r.checksum, ran[i]!.checksum);
    assert.deepEqual(r.solver_report, ran[i]!.solver_report);
  });
  // A single job with variant 1's request, and it downloads the same verified file.
  const sim = smallSimulation();
  const box = (sim.structures as Record<string, unknown>[])[0]!;
  const single = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key,
    body: { ...sim, structures: [{ ...box, size: [0.05e-6, 0.05e-6, 0.4e-6] }] },
  });
  assert.equal(single.status, 202);
  const done = await waitForStatus(svc.baseUrl, key, String(single.body.job_id), ["COMPLETED"]);
  assert.equal(done.reused_result_of, ran[1]!.reused_result_of ?? ran[1]!.job_id);
  const download = await fetch(
    `${svc.baseUrl}/v1/simulations/${String(single.body.job_id)}/results`,
    {
      headers: { authorization: `Bearer ${key}` },
    },
  );
  assert.equal(download.status, 200);
  const bytes = Buffer.from(await download.arrayBuffer());
  assert.equal(createHash("sha256").update(bytes).digest("hex"), done.checksum);
});

test("a twin whose stored result is gone is not reused: the identical job runs", async () => {
  const body = { ...smallSimulation(), metadata: { case: "twin result deleted" } };
  const submit = async () => {
    const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body });
    assert.equal(sub.status, 202, sub.text);
    return waitForStatus(svc.baseUrl, key, String(sub.body.job_id), ["COMPLETED", "FAILED"]);
  };
  const first = await submit();
  assert.equal(first.status, "COMPLETED", String(first.error_detail));
  const row = await svc.service.stores.jobs.getJob(String(first.job_id));
  await svc.service.storage.delete(row!.resultKey!);
  const second = await submit();
  assert.equal(second.status, "COMPLETED", String(second.error_detail));
  assert.equal(second.reused_result_of, null, "answered from a result that no longer exists");
  const download = await fetch(`${svc.baseUrl}/v1/simulations/${String(second.job_id)}/results`, {
    headers: { authorization: `Bearer ${key}` },
  });
  assert.equal(download.status, 200);
  const bytes = Buffer.from(await download.arrayBuffer());
  assert.equal(createHash("sha256").update(bytes).digest("hex"), second.checksum);
});

test("the 409 rule holds for batches both ways, and cancelling stops the batch at once", async () => {
  const sub = await call(svc.baseUrl, "POST", "/v1/batches", {
    key,
    body: {
      simulation: longSimulation(),
      parameters: [
        {
          name: "wl",
          path: "/source/wavelength",
          range: { start: 1.5e-6, stop: 1.6e-6, points: 4 },
        },
      ],
    },
  });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.batch_id);
  // A storm of submissions meanwhile: every one refused, naming the batch.
  const storm = await Promise.all([
    ...Array.from({ length: 4 }, () =>
      call(svc.baseUrl, "POST", "/v1/simulations", { key, body: smallSimulation() }),
    ),
    ...Array.from({ length: 4 }, () =>
      call(svc.baseUrl, "POST", "/v1/batches", {
        key,
        body: { simulation: smallSimulation(), parameters: [thickness] },
      }),
    ),
  ]);
  for (const r of storm) {
    assert.equal(r.status, 409, r.text);
    assert.equal(r.body.active_batch_id, id);
    assert.ok(Number(r.body.retry_after) >= 1);
    assert.equal(r.headers.get("retry-after"), String(r.body.retry_after));
  }
  const running = await waitForBatch(id, ["RUNNING"]);
  const first = running.jobs[0]!.job_id;
  await waitForStatus(svc.baseUrl, key, first, ["RUNNING"]);
  // The results' 409 says the time the batch has left as the submission's 409 does (it was 30 s
  // a job, whatever the jobs).
  const [results, refused] = [
    await call(svc.baseUrl, "GET", `/v1/batches/${id}/results`, { key }),
    await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: smallSimulation() }),
  ];
  assert.equal(results.status, 409, results.text);
  assert.equal(refused.status, 409, refused.text);
  const [a, b] = [Number(results.body.retry_after), Number(refused.body.retry_after)];
  assert.ok(Math.abs(a - b) <= 2, `results ${a} s, submission ${b} s`);
  const started = Date.now();
  const cancel = await call(svc.baseUrl, "POST", `/v1/batches/${id}/cancel`, { key });
  assert.equal(cancel.status, 200);
  assert.equal(cancel.body.cancel_requested, true);
  const stopped = await waitForStatus(svc.baseUrl, key, first, ["FAILED", "COMPLETED"], 10_000);
  assert.equal(stopped.status, "FAILED");
  assert.ok(Date.now() - started < 5000, "the running job stopped within seconds");
  const after = await waitForBatch(id, ["FAILED"], 10_000);
  assert.deepEqual(after.counts, { QUEUED: 0, RUNNING: 0, COMPLETED: 0, FAILED: 4 });
  assert.ok(after.jobs.slice(1).every((j) => /batch/.test(j.error_detail ?? "")));
  // The account is free again.
  const next = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: smallSimulation() });
  assert.equal(next.status, 202);
  await waitForStatus(svc.baseUrl, key, String(next.body.job_id), ["COMPLETED", "FAILED"]);
});

test("bad batches are 422s naming the parameter or the variant, estimated or submitted, and nothing is queued", async () => {
  const other = await svc.newKey("batches-bad@example.com");
  const post = (body: unknown) => call(svc.baseUrl, "POST", "/v1/batches", { key: other, body });
  const sim = smallSimulation();
  const cases: [unknown, string, RegExp][] = [
    [
      {
        simulation: sim,
        parameters: [{ name: "t", path: "/structures/4/size/2", values: [1e-7] }],
      },
      "parameters[0].path",
      /points to nothing: "\/structures" is an array of 1/,
    ],
    [
      {
        simulation: sim,
        parameters: [{ name: "t", path: "/structures/0/size/2", values: ["thin", "thick"] }],
      },
      "variants[0].structures[0].size[2]",
      /parameters\[0\] "t" = "thin"/,
    ],
    [
      // A whole array swept as numbers: the gds resolution took it for structures (500).
      { simulation: sim, parameters: [{ name: "s", path: "/structures", values: [1, 2] }] },
      "variants[0].structures",
      /must be array.*parameters\[0\] "s" = 1/,
    ],
    [
      // A path inside another's value: was a TypeError in writing the variants (500).
      {
        simulation: sim,
        parameters: [
          { name: "a", path: "/structures/0/size", values: [1] },
          { name: "b", path: "/structures/0/size/2", values: [3e-7] },
        ],
      },
      "parameters[1].path",
      /lies inside parameters\[0\]'s "\/structures\/0\/size"/,
    ],
    [
      {
        simulation: sim,
        parameters: [{ name: "t", path: "/structures/0/size/2", values: [1e-7, "thick"] }],
      },
      "parameters[0].values",
      /mixes number and string values/,
    ],
    [
      { simulation: sim, parameters: [{ ...thickness, name: "wavelength" }] },
      "parameters[0].name",
      /a name the result file uses/,
    ],
    [
      {
        simulation: sim,
        parameters: [{ name: "t", path: "/domain/resolution", values: [0.05e-6, -1] }],
      },
      "variants[1].domain.resolution",
      /"t" = -1/,
    ],
    [
      // The refusal names the centre; the parameter sweeps one coordinate of it.
      {
        simulation: sim,
        parameters: [{ name: "height", path: "/monitors/0/center/2", values: [0, 5e-6] }],
      },
      "variants[1].monitors[0].center",
      /outside the domain along z.*\(parameters\[0\] "height" = 0\.000005\)/,
    ],
    [
      // The refusal lies on no swept path (the monitor is left reaching past a shorter domain):
      // the one parameter is named all the same.
      {
        simulation: sim,
        parameters: [{ name: "dz", path: "/domain/size/2", values: [3e-6, 1e-6] }],
      },
      "variants[1].monitors[0].size[2]",
      /\(parameters\[0\] "dz" = 0\.000001\)$/,
    ],
    [
      // With several parameters, the variant's value of each.
      {
        simulation: sim,
        parameters: [
          { name: "dz", path: "/domain/size/2", values: [3e-6, 1e-6] },
          { name: "wl", path: "/source/wavelength", values: [1.5e-6, 1.6e-6] },
        ],
      },
      "variants[2].monitors[0].size[2]",
      /\(in the variant where parameters\[0\] "dz" = 0\.000001 and parameters\[1\] "wl" = 0\.0000015\)$/,
    ],
    [
      {
        simulation: sim,
        parameters: [
          {
            name: "a",
            path: "/source/wavelength",
            range: { start: 1.5e-6, stop: 1.6e-6, points: 101 },
          },
          {
            name: "b",
            path: "/structures/0/size/2",
            range: { start: 1e-7, stop: 2e-7, points: 100 },
          },
        ],
      },
      "parameters",
      /10100 variants \(101 × 100\); at most 10000/,
    ],
    [
      { simulation: sim, parameters: [{ name: "t", path: "/structures/0/size/2" }] },
      "parameters[0]",
      /either values or range/,
    ],
    [
      { simulation: { ...sim, domain: "big" }, parameters: [thickness] },
      "simulation.domain",
      /object/,
    ],
    [
      {
        simulation: longSimulation(),
        parameters: [
          {
            name: "n",
            path: "/metadata/project",
            values: Array.from({ length: 2000 }, (_, i) => `p${i}`),
          },
        ],
      },
      "parameters",
      /EMSIM_MAX_BATCH_SECONDS/,
    ],
  ];
  const estimate = (body: unknown) =>
    call(svc.baseUrl, "POST", "/v1/batches/estimate", { key: other, body });
  for (const [body, path, message] of cases) {
    for (const res of [await post(body), await estimate(body)]) {
      assert.equal(res.status, 422, `${path}: ${res.text}`);
      const errs = res.body.errors as { path: string; message: string }[];
      assert.equal(errs[0]!.path, path, res.text);
      assert.match(errs[0]!.message, message);
    }
  }
  // A placeholder every variant replaces need not be valid itself (a size of 0 was refused).
  const placeholder = structuredClone(sim) as { structures: { size: number[] }[] };
  placeholder.structures[0]!.size[2] = 0;
  const replaced = await estimate({ simulation: placeholder, parameters: [thickness] });
  assert.equal(replaced.status, 200, replaced.text);
  const unswept = await estimate({
    simulation: placeholder,
    parameters: [{ ...thickness, path: "/source/wavelength", values: [1.5e-6] }],
  });
  assert.equal(unswept.status, 422);
  assert.equal(
    (unswept.body.errors as { path: string }[])[0]!.path,
    "simulation.structures[0].size[2]",
  );
  // Sixty bad variants: 50 listed, all 60 counted (error_count said 50, "and 49 more").
  const sixty = {
    simulation: sim,
    parameters: [
      {
        name: "t",
        path: "/domain/resolution",
        values: Array.from({ length: 60 }, (_, i) => -i - 1),
      },
    ],
  };
  for (const res of [await post(sixty), await estimate(sixty)]) {
    assert.equal(res.status, 422, res.text);
    assert.equal((res.body.errors as unknown[]).length, 50);
    assert.equal(res.body.error_count, 60);
    assert.match(String(res.body.detail), /\(and 59 more\)$/);
  }
  const listed = await call(svc.baseUrl, "GET", "/v1/batches", { key: other });
  assert.deepEqual(listed.body.batches, []);
  const jobs = await call(svc.baseUrl, "GET", "/v1/simulations", { key: other });
  assert.deepEqual(jobs.body.jobs, []);
  const missing = await call(svc.baseUrl, "GET", `/v1/batches/${crypto.randomUUID()}`, {
    key: other,
  });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error_code, "batch_not_found");
});

test("a batch's estimate is its jobs' estimates summed, queues nothing and answers while a batch runs", async () => {
  const own = await svc.newKey("batches-estimate@example.com");
  const body = { simulation: smallSimulation(), parameters: [thickness] };
  const res = await call(svc.baseUrl, "POST", "/v1/batches/estimate", { key: own, body });
  assert.equal(res.status, 200, res.text);
  const singles = await Promise.all(
    thickness.values.map(async (t) => {
      const sim = smallSimulation();
      (sim.structures as { size: number[] }[])[0]!.size[2] = t;
      const one = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
        key: own,
        body: sim,
      });
      assert.equal(one.status, 200, one.text);
      return one.body as Record<string, number>;
    }),
  );
  const sum = (k: string) => singles.reduce((s, e) => s + e[k]!, 0);
  assert.equal(res.body.job_count, 3);
  assert.equal(res.body.time_steps, sum("time_steps"));
  assert.equal(res.body.result_bytes, sum("result_bytes"));
  assert.equal(
    (res.body.largest_job as { cells: number }).cells,
    Math.max(...singles.map((e) => e.cells!)),
  );
  // Each single estimate rounds its own seconds up to tenths; the batch rounds the sum once.
  const expected = Number(res.body.expected_seconds);
  const summed = sum("expected_seconds");
  assert.ok(expected <= summed + 1e-9 && expected >= summed - 0.3, `${expected} ${summed}`);
  assert.equal(res.body.max_batch_seconds, 36000);
  const none = await call(svc.baseUrl, "GET", "/v1/batches", { key: own });
  assert.deepEqual(none.body.batches, []);

  // With a batch of the account's running, the estimate still answers (a submission is a 409).
  const long = { simulation: longSimulation(), parameters: [thickness] };
  const running = await call(svc.baseUrl, "POST", "/v1/batches", { key: own, body: long });
  assert.equal(running.status, 202, running.text);
  const during = await call(svc.baseUrl, "POST", "/v1/batches/estimate", { key: own, body });
  assert.equal(during.status, 200, during.text);
  const refused = await call(svc.baseUrl, "POST", "/v1/batches", { key: own, body });
  assert.equal(refused.status, 409);
  const cancel = `/v1/batches/${String(running.body.batch_id)}/cancel`;
  assert.equal((await call(svc.baseUrl, "POST", cancel, { key: own })).status, 200);
  await waitForBatch(String(running.body.batch_id), ["FAILED"], 10_000, own);
});
