/**
 * Every example's set-up picture, pixel for pixel: `emsim preview examples/<example>.json`
 * draws it again (in this process, with the command's own code: the layout of the coupler read
 * from its .gds, the batch request's base simulation) into a temporary folder, and it is
 * compared with its reference, docs/images/previews/<example>.png, read with the tests' own
 * PNG decoder. A change to the painting, an outline, a colour or the layout of the plot fails
 * here; after a deliberate one, regenerate the references with
 * `node --import tsx scripts/examples/make-preview-references.ts`, look at them, and commit
 * them with the change.
 *
 * The tolerance is measured, not guessed. The drawing is deterministic (our own rasteriser and
 * bitmap font), so an unchanged picture differs in 0 pixels; what may drift, a platform's
 * Math.sin or a rounding in the last bits, moves a channel by a few levels at an edge, which the
 * per-channel tolerance absorbs. Past it, on the strip waveguide's 710 348 pixels, with its
 * silicon moved along x: 1 nm (its edge cells' averaged ε changes) 34 pixels, one cell (25 nm)
 * 1 799, three cells 3 530; 75 nm up, 11 248; Si3N4 in place of Si, 84 709. The last test moves
 * it by three cells and changes its material in a scratch copy, and checks that both fail.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  drawExamplePreview,
  drawPreview,
  EXAMPLES_DIR,
  previewedExamples,
  REFERENCES_DIR,
} from "../../scripts/examples/make-preview-references.js";
import { decodePng, type DecodedPng } from "../cli/helpers.js";
import { compareImages, type ImageDifference } from "../dashboard/images.js";

/** Largest per-channel difference counted as antialiasing noise (of 255). */
const CHANNEL_TOLERANCE = 24;
/**
 * Pixels that may differ by more: a sub-nanometre's change at a structure's edge, not a
 * structure moved by a cell (1 799 pixels; see above). The pictures have 0.3 to 0.9 million.
 */
const MAX_DIFFERING = 200;

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), "emsim-preview-references-"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function differenceFrom(actual: DecodedPng, reference: string): ImageDifference | null {
  return compareImages(actual, decodePng(readFileSync(reference)), CHANNEL_TOLERANCE);
}

const describe = (d: ImageDifference | null) =>
  d ? `${d.differing} of ${d.total} pixels, up to ${d.maxDelta}` : "a picture of another size";

test("every example has a reference picture, and every reference an example", () => {
  const examples = previewedExamples();
  assert.ok(examples.length >= 10, `${examples.length} examples`);
  const references = readdirSync(REFERENCES_DIR)
    .filter((f) => f.endsWith(".png"))
    .map((f) => f.slice(0, -".png".length))
    .sort();
  assert.deepEqual(references, examples);
});

for (const example of previewedExamples()) {
  test(`${example}: the set-up picture is its reference's`, async () => {
    const png = join(dir, `${example}.png`);
    await drawExamplePreview(example, png);
    const reference = join(REFERENCES_DIR, `${example}.png`);
    assert.ok(existsSync(reference), `no reference ${reference}`);
    const diff = differenceFrom(decodePng(readFileSync(png)), reference);
    if (!diff || diff.differing > MAX_DIFFERING) {
      const kept = join(tmpdir(), `emsim-actual-preview-${example}.png`);
      copyFileSync(png, kept);
      assert.fail(
        `${example}: the picture differs from docs/images/previews/${example}.png (${describe(diff)}); it is ${kept}`,
      );
    }
  });
}

/** The strip waveguide's file with its silicon strip (structures[1]) changed by `change`. */
function stripVariant(name: string, change: (si: { center: number[]; material: string }) => void) {
  const body = JSON.parse(readFileSync(join(EXAMPLES_DIR, "si-strip-waveguide.json"), "utf8"));
  change(body.structures[1]);
  // The example's name in a folder of its own: the subtitle names the file, and must not differ.
  mkdirSync(join(dir, name));
  const file = join(dir, name, "si-strip-waveguide.json");
  writeFileSync(file, JSON.stringify(body));
  return file;
}

/** The picture of a simulation file as `emsim preview` draws it. */
async function pictureOf(file: string): Promise<DecodedPng> {
  await drawPreview(file, `${file}.png`);
  return decodePng(readFileSync(`${file}.png`));
}

test("the tolerance fails a strip moved by three cells and a changed material", async () => {
  const reference = join(REFERENCES_DIR, "si-strip-waveguide.png");
  // The example's own file through the same path: within the tolerance (0 pixels, in fact).
  const same = differenceFrom(await pictureOf(stripVariant("same", () => {})), reference)!;
  assert.ok(same.differing <= MAX_DIFFERING, describe(same));
  // 75 nm along x (the grid's step is 25 nm): the strip's block and outline move in two panels.
  const moved = differenceFrom(
    await pictureOf(stripVariant("moved", (si) => (si.center[0] = 75e-9))),
    reference,
  )!;
  // Silicon nitride (ε ≈ 4) where silicon (ε ≈ 12) was: the strip's colour and the label.
  const recoloured = differenceFrom(
    await pictureOf(stripVariant("nitride", (si) => (si.material = "Si3N4"))),
    reference,
  )!;
  for (const [what, d] of [
    ["moved", moved],
    ["recoloured", recoloured],
  ] as const) {
    assert.ok(d.differing > 5 * MAX_DIFFERING, `${what}: only ${describe(d)}`);
  }
});
