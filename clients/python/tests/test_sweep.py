"""Sweeps against a real server: ``client.sweep`` submits a batch, follows it and loads its one
verified file (every monitor with the sweep's dimension first); a batch left running is met by
other submissions as a 409 naming it, cancelled and waited for; typed errors (404, 422 naming
the variant, a batch that FAILED, a corrupted file); and names made from pointers."""

import glob
import hashlib
import os
import tempfile
import unittest

import numpy as np

import emsim
from emsim.client import batch_parameters, sweep_name
from support import env, long_request, small_request

THICKNESS = np.array([0.3e-6, 0.5e-6])


def slab_request():
    """The vacuum column of support.small_request with a glass slab across it."""
    request = small_request(time_steps=3000)
    request["structures"] = [
        {"type": "box", "center": [0, 0, 0.5e-6], "size": [1, 1, 0.4e-6], "material": "SiO2"}
    ]
    return request


class Sweep(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = emsim.Client(env("EMSIM_TEST_BASE_URL"), env("EMSIM_TEST_SWEEP_KEY"))
        cls.dir = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.dir.name, "sweep.h5")
        cls.seen = []
        cls.result = cls.client.sweep(
            slab_request(),
            {"/structures/0/size/2": THICKNESS},
            metadata={"suite": "python"},
            path=cls.path,
            progress=cls.seen.append,
            poll_interval=0.2,
        )
        cls.batch = cls.client.get_batch(cls.result.batch_id)
        # The callable gets every batch record, then the download's progress.
        cls.records = [r for r in cls.seen if "batch_id" in r]

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_sweep_loads_the_batch_file_with_the_sweep_first(self):
        self.assertIsInstance(self.result, emsim.BatchResult)
        self.assertEqual(self.result.batch_id, self.batch["batch_id"])
        self.assertEqual(self.result.dimensions, ["structures_0_size_2"])
        axis = self.result["axis"]
        self.assertEqual(axis.Ey.dims[0], "structures_0_size_2")
        np.testing.assert_allclose(axis.structures_0_size_2.values, THICKNESS)
        self.assertEqual(self.result.jobs.status.values.tolist(), ["COMPLETED", "COMPLETED"])
        # A thicker slab changes the field behind it: the variants differ.
        self.assertFalse(np.allclose(axis.Ey.values[0], axis.Ey.values[1]))

    def test_the_record_and_the_verified_file(self):
        batch = self.batch
        self.assertEqual(batch["status"], "COMPLETED")
        self.assertEqual(batch["counts"]["COMPLETED"], 2)
        self.assertEqual(batch["metadata"], {"suite": "python"})
        self.assertEqual(self.records[-1]["status"], "COMPLETED")
        self.assertIn("received_bytes", self.seen[-1])
        with open(self.path, "rb") as f:
            self.assertEqual(hashlib.sha256(f.read()).hexdigest(), batch["checksum"])
        self.assertFalse(os.path.exists(self.path + ".part"))
        listed = [b["batch_id"] for b in self.client.batches(page_size=1)]
        self.assertIn(batch["batch_id"], listed)
        self.assertNotIn("jobs", self.client.list_batches(limit=1)["batches"][0])

    def test_a_running_batch_conflicts_is_cancelled_and_has_no_file(self):
        ack = self.client.sweep(
            long_request(),
            [{"name": "every", "path": "/fdtd_settings/check_every_n", "values": [1000, 2000]}],
            wait=False,
        )
        self.assertEqual(ack["job_count"], 2)
        try:
            with self.assertRaises(emsim.SimulationAlreadyRunningError) as caught:
                self.client.submit(small_request())
            self.assertEqual(caught.exception.active_batch_id, ack["batch_id"])
            with self.assertRaises(emsim.ResultsNotReadyError):
                self.client.download_batch(ack["batch_id"], os.path.join(self.dir.name, "x.h5"))
        finally:
            self.client.cancel_batch(ack["batch_id"])
        batch = self.client.wait_batch(ack["batch_id"], progress=False, timeout=60)
        self.assertEqual(batch["status"], "FAILED")
        self.assertEqual(batch["counts"]["FAILED"], 2)

        # sweep raises BatchFailedError when no job completed: cancelled at the first record.
        def cancel_it(record):
            if not record["cancel_requested"]:
                self.client.cancel_batch(record["batch_id"])

        with self.assertRaises(emsim.BatchFailedError) as caught:
            self.client.sweep(
                long_request(),
                {"/fdtd_settings/check_every_n": [500]},
                progress=cancel_it,
                poll_interval=0.2,
            )
        self.assertEqual(caught.exception.batch["status"], "FAILED")
        self.assertRegex(str(caught.exception), r"none of its 1 jobs completed \(job 0: .*ancel")

    def test_typed_errors(self):
        with self.assertRaises(emsim.BatchNotFoundError) as caught:
            self.client.get_batch("3f6c2b1a-0000-4000-8000-000000000000")
        self.assertEqual(caught.exception.error_code, "batch_not_found")
        self.assertIsInstance(caught.exception, emsim.NotFoundError)
        with self.assertRaises(emsim.ValidationError) as caught:
            self.client.submit_batch(
                {
                    "simulation": slab_request(),
                    "parameters": [
                        {"name": "t", "path": "/structures/0/size/2", "values": [3e-7, -1]}
                    ],
                }
            )
        self.assertEqual(
            [e.path for e in caught.exception.errors], ["variants[1].structures[0].size[2]"]
        )
        self.assertIn('(parameters[0] "t" = -1)', caught.exception.errors[0].message)

    def test_estimate_batch_prices_the_sweep_and_refuses_what_a_submission_would(self):
        body = {
            "simulation": slab_request(),
            "parameters": [
                {
                    "name": "t",
                    "path": "/structures/0/size/2",
                    "values": [float(t) for t in THICKNESS],
                }
            ],
        }
        e = self.client.estimate_batch(body)
        one = self.client.estimate(slab_request())
        self.assertEqual(e["job_count"], len(THICKNESS))
        self.assertEqual(e["time_steps"], len(THICKNESS) * one["time_steps"])
        self.assertGreater(e["expected_seconds"], 0)
        body["parameters"][0]["values"] = [3e-7, -1]
        with self.assertRaises(emsim.ValidationError) as caught:
            self.client.estimate_batch(body)
        self.assertEqual(
            [e.path for e in caught.exception.errors], ["variants[1].structures[0].size[2]"]
        )

    def test_a_corrupted_batch_file_is_refused(self):
        stored = glob.glob(
            os.path.join(
                env("EMSIM_TEST_DATA_DIR"), "results", "batches", self.batch["batch_id"] + "*"
            )
        )
        self.assertEqual(len(stored), 1)
        with open(stored[0], "rb") as f:
            original = f.read()
        target = os.path.join(self.dir.name, "corrupt.h5")
        try:
            with open(stored[0], "wb") as f:
                f.write(original[:-1] + bytes([original[-1] ^ 0xFF]))
            with self.assertRaises(emsim.ChecksumMismatchError) as caught:
                self.client.download_batch(self.batch["batch_id"], target, progress=False)
            self.assertEqual(caught.exception.kind, "batch")
            self.assertIn("the download of batch", str(caught.exception))
            self.assertFalse(os.path.exists(target))
        finally:
            with open(stored[0], "wb") as f:
                f.write(original)
        path = self.client.download_batch(self.batch["batch_id"], target, progress=False)
        self.assertEqual(str(path), target)


class SweepNames(unittest.TestCase):
    """The names the CLI and the TypeScript SDK make (src/results/sweep-names.test.ts)."""

    def test_names_from_pointers(self):
        self.assertEqual(sweep_name("/structures/1/size/0"), "structures_1_size_0")
        self.assertEqual(sweep_name("/source/wavelength"), "source_wavelength")
        self.assertEqual(sweep_name("/metadata/a~1b/c-d e"), "metadata_a_b_c_d_e")
        self.assertEqual(sweep_name("/wavelength"), "wavelength_value")
        self.assertEqual(sweep_name("/monitors/0/mode_index"), "monitors_0_mode_index_value")
        self.assertEqual(sweep_name("/0/x"), "p_0_x")
        self.assertEqual(sweep_name("/"), "parameter")
        self.assertEqual(
            sweep_name("/source/wavelength", ["source_wavelength", "source_wavelength_2"]),
            "source_wavelength_3",
        )
        long = "/" + "a" * 30 + "/" + "b" * 30 + "/size/2"
        self.assertEqual(sweep_name(long), "b" * 30 + "_size_2")

    def test_parameters_by_pointer(self):
        self.assertEqual(
            batch_parameters(
                {
                    "/source/wavelength": {"start": 1.5e-6, "stop": 1.6e-6, "points": 3},
                    "/structures/0/size/2": np.array([1e-7, 2e-7]),
                }
            ),
            [
                {
                    "name": "source_wavelength",
                    "path": "/source/wavelength",
                    "range": {"start": 1.5e-6, "stop": 1.6e-6, "points": 3},
                },
                {
                    "name": "structures_0_size_2",
                    "path": "/structures/0/size/2",
                    "values": [1e-7, 2e-7],
                },
            ],
        )


if __name__ == "__main__":
    unittest.main()
