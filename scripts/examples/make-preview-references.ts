/**
 * Writes docs/images/previews/<example>.png: the set-up picture of every simulation file in
 * examples/, as `emsim preview examples/<example>.json --out <example>.png` draws it (the
 * three planes through the origin, the default size). The coupler's layout is read from
 * examples/directional-coupler.gds; the batch request's picture is its base simulation's.
 *
 * The pictures are the references test/examples/preview-references.test.ts compares a fresh
 * drawing with, so a change to the painting, the outlines or the plot shows up there. After a
 * deliberate change, run this, look at the pictures, and commit them with the change.
 *
 * Usage: node --import tsx scripts/examples/make-preview-references.ts [out folder]
 * (default docs/images/previews). The same code draws the same bytes each time.
 */
import { mkdirSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runPreview } from "../../src/cli/commands/preview.js";
import type { CommandIo } from "../../src/cli/output.js";

export const EXAMPLES_DIR = fileURLToPath(new URL("../../examples/", import.meta.url));
export const REFERENCES_DIR = fileURLToPath(
  new URL("../../docs/images/previews/", import.meta.url),
);

/** The examples with a picture: every .json of examples/, by name without `.json`. */
export function previewedExamples(): string[] {
  return readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -".json".length))
    .sort();
}

/** Output collected rather than printed: the picture is what matters, the text is for errors. */
function collectingIo(): { io: CommandIo; text: () => string } {
  let text = "";
  const stream = {
    write: (s: string | Uint8Array) => {
      text += String(s);
      return true;
    },
  } as unknown as NodeJS.WritableStream;
  return { io: { json: false, stdout: stream, stderr: stream }, text: () => text };
}

/**
 * Draws a simulation file's set-up into `pngPath` with `emsim preview`'s own code, in this
 * process.
 * @throws when the command fails, with what it printed
 */
export async function drawPreview(simulationFile: string, pngPath: string): Promise<void> {
  const { io, text } = collectingIo();
  const code = await runPreview([simulationFile, "--out", pngPath], io);
  if (code !== 0) throw new Error(`emsim preview ${simulationFile} exited ${code}:\n${text()}`);
}

/** Draws the set-up of examples/<example>.json into `pngPath`. */
export function drawExamplePreview(example: string, pngPath: string): Promise<void> {
  return drawPreview(join(EXAMPLES_DIR, `${example}.json`), pngPath);
}

// Run as a script (the test imports the functions above).
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const out = process.argv[2] ?? REFERENCES_DIR;
  mkdirSync(out, { recursive: true });
  for (const example of previewedExamples()) {
    const png = join(out, `${example}.png`);
    await drawExamplePreview(example, png);
    console.log(`wrote ${png}`);
  }
}
