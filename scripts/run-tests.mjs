#!/usr/bin/env node
// Finds every *.test.ts under src/ and test/ and runs them with Node's test runner, the
// TypeScript compiled by the suite's own loader (scripts/ts-loader/: esbuild and a cache, about
// half tsx's start-up cost per file and per worker thread; EMSIM_TS_LOADER tells threads and
// child processes which loader to register). Node 20's --test does not expand globs, so the
// file list is built here.
// Usage: node scripts/run-tests.mjs [substring ...]  (only files whose path contains one of them)
// Every test has a 300 s limit, so a hung test fails instead of hanging the suite. After the
// run, the slowest files are listed by their processes' wall times (scripts/test-clock.mjs:
// imports, hooks and tests), so the suite's time budget can be kept; the files run two at a
// time, so the times add up to about twice the run's. EMSIM_TEST_FILES_SHOWN sets how many (20).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith(".test.ts")) out.push(p);
  }
  return out;
}

/** The slowest files' lines for the log, from the lines test-clock.mjs wrote into `dir`. */
function slowestFiles(dir, shown) {
  let text = "";
  try {
    text = readFileSync(join(dir, "times.jsonl"), "utf8");
  } catch {
    return []; // no file ran to its end
  }
  const rows = text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .sort((a, b) => b.seconds - a.seconds);
  const total = rows.reduce((sum, r) => sum + r.seconds, 0);
  return [
    `slowest test files (of ${rows.length}, ${total.toFixed(0)} s in all):`,
    ...rows.slice(0, shown).map((r) => `${r.seconds.toFixed(1).padStart(7)} s  ${r.file}`),
  ];
}

const filters = process.argv.slice(2);
const files = ["src", "test"]
  .flatMap((d) => walk(d, []))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error("no test files matched");
  process.exit(1);
}
const loader = pathToFileURL("scripts/ts-loader/register.mjs").href;
const clockDir = mkdtempSync(join(tmpdir(), "emsim-test-clock-"));
const res = spawnSync(
  process.execPath,
  [
    // Failures name the TypeScript's lines (the loader inlines esbuild's source maps).
    "--enable-source-maps",
    "--import",
    loader,
    "--import",
    pathToFileURL("scripts/test-clock.mjs").href,
    "--test",
    "--test-reporter=spec",
    "--test-concurrency=2",
    "--test-timeout=300000",
    ...files,
  ],
  {
    stdio: "inherit",
    env: {
      ...process.env,
      NODE_ENV: "test",
      EMSIM_TS_LOADER: loader,
      EMSIM_TEST_CLOCK_DIR: clockDir,
    },
  },
);
console.log(
  `\n${slowestFiles(clockDir, Number(process.env.EMSIM_TEST_FILES_SHOWN ?? 20)).join("\n")}`,
);
rmSync(clockDir, { recursive: true, force: true });
process.exit(res.status ?? 1);
