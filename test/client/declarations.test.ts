/**
 * emsim/client's declarations as a TypeScript user reads them: a project of its own with
 * TypeScript's defaults for libraries (skipLibCheck false, so every declaration file is
 * checked) and only Node's types. Ours has skipLibCheck on, which hid that the client's types
 * reach the solver's WebGPU module, whose declarations named WebGPU's globals without saying
 * where they come from: such a project did not compile. The check takes about 30 s of CPU,
 * nearly all of it TypeBox's own declarations, which such a project checks too.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../helpers/service.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");

function tsc(args: string[]): { status: number | null; output: string } {
  const res = spawnSync(process.execPath, [TSC, ...args], { encoding: "utf8", timeout: 240_000 });
  return { status: res.status, output: `${res.stdout}${res.stderr}` };
}

test("a TypeScript project with default library checks compiles against emsim/client's declarations", () => {
  // `npm test` builds them (scripts/build.mjs); a build with --no-types left them out.
  const declarations = join(ROOT, "dist");
  if (!existsSync(join(declarations, "client/index.d.ts"))) {
    const emitted = tsc(["-p", join(ROOT, "tsconfig.build.json")]);
    assert.equal(emitted.status, 0, emitted.output);
  }
  const user = tempDir();
  writeFileSync(
    join(user, "main.ts"),
    `import { EmsimClient, type SimulationRequest } from ${JSON.stringify(
      join(declarations, "client/index.js"),
    )};\n` +
      'export const client = new EmsimClient({ baseUrl: "http://127.0.0.1:8080", apiKey: "k" });\n' +
      "export const request: SimulationRequest | null = null;\n",
  );
  writeFileSync(
    join(user, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noEmit: true,
        // The user's own @types/node, as an installed project has it.
        typeRoots: [join(ROOT, "node_modules/@types")],
        types: ["node"],
      },
      files: ["main.ts"],
    }),
  );
  const checked = tsc(["-p", join(user, "tsconfig.json")]);
  assert.equal(checked.status, 0, checked.output);
});
