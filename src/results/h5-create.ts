/**
 * Creating a file's groups and datasets with h5wasm, checked (hdf5.ts, permittivity-group.ts,
 * batch-merge.ts). When HDF5 refuses to create something — a full disk, a file whose folder is
 * gone — h5wasm says nothing: HDF5 prints its error stack to stderr and h5wasm hands back a file
 * with a negative id, or null where the dataset should be. Left alone, the null surfaces a few
 * lines later as a TypeError ("Cannot read properties of null"), which reads as a bug of ours
 * and fails the job for good (audit F2). Checked here, the refusal is a ResultFileError where
 * it happens: the disk's fault, worth another attempt. What h5wasm throws itself (data that
 * does not fit its shape) is our bug and passes through unchanged.
 */
import h5wasm from "h5wasm/node";
import type { H5Group } from "./h5-attrs.js";
import { ResultFileError } from "./read-back.js";

type H5File = InstanceType<typeof h5wasm.File>;
type H5Dataset = InstanceType<typeof h5wasm.Dataset>;
type DatasetArgs = Parameters<H5Group["create_dataset"]>[0];

/** A new, empty file at `path`, open for writing. */
export function createFile(path: string): H5File {
  const file = new h5wasm.File(path, "w");
  if (file.file_id < 0n) {
    throw new ResultFileError(`HDF5 could not create ${path} (its error is on stderr)`);
  }
  return file;
}

/** A new group `name` in `parent`. */
export function createGroup(parent: H5Group, name: string): H5Group {
  // h5wasm's types promise a group; at run time it is null when HDF5 created none.
  const group = parent.create_group(name) as H5Group | null;
  if (!group) throw notCreated(parent, name);
  return group;
}

/** A new dataset in `parent`, written from `args.data`. */
export function createDataset(parent: H5Group, args: DatasetArgs): H5Dataset {
  const dataset = parent.create_dataset(args) as H5Dataset | null;
  if (!dataset) throw notCreated(parent, args.name);
  return dataset;
}

function notCreated(parent: H5Group, name: string): ResultFileError {
  const path = `${parent.path === "/" ? "" : parent.path}/${name}`;
  return new ResultFileError(
    `HDF5 did not create ${path}: the file takes no more writes (its error is on stderr)`,
  );
}
