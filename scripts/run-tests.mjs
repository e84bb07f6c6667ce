#!/usr/bin/env node
// Finds every *.test.ts under src/ and test/ and runs them with Node's test runner, the
// TypeScript compiled by the suite's own loader (scripts/ts-loader/: esbuild and a cache, about
// half tsx's start-up cost per file and per worker thread; EMSIM_TS_LOADER tells threads and
// child processes which loader to register). Node 20's --test does not expand globs, so the
// file list is built here.
// Usage: node scripts/run-tests.mjs [substring ...]  (only files whose path contains one of them)
// Every test has a 300 s limit, so a hung test fails instead of hanging the suite. After the
// run, the slowest files are listed (scripts/test-file-times.mjs).
import { readdirSync, statSync } from "node:fs";
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
const res = spawnSync(
  process.execPath,
  [
    // Failures name the TypeScript's lines (the loader inlines esbuild's source maps).
    "--enable-source-maps",
    "--import",
    loader,
    "--test",
    "--test-reporter=spec",
    "--test-reporter-destination=stdout",
    "--test-reporter=./scripts/test-file-times.mjs",
    "--test-reporter-destination=stdout",
    "--test-concurrency=2",
    "--test-timeout=300000",
    ...files,
  ],
  { stdio: "inherit", env: { ...process.env, NODE_ENV: "test", EMSIM_TS_LOADER: loader } },
);
process.exit(res.status ?? 1);
