"""Downloads resume from a .part file with a Range request, and a file that does not match
the job's checksum is deleted and raises."""

import glob
import hashlib
import os
import tempfile
import unittest

import emsim
from support import api_key, base_url, env, small_request


class Download(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = emsim.Client(base_url(), env("EMSIM_TEST_DOWNLOAD_KEY"))
        cls.dir = tempfile.TemporaryDirectory()
        ack = cls.client.submit(small_request(time_steps=3000))
        cls.job = cls.client.wait(ack["job_id"], progress=False)
        assert cls.job["status"] == "COMPLETED", cls.job
        cls.whole = cls.client.download(
            cls.job["job_id"], os.path.join(cls.dir.name, "whole.h5"), progress=False
        )
        with open(cls.whole, "rb") as f:
            cls.bytes = f.read()

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def target(self, name):
        return os.path.join(self.dir.name, name)

    def test_resumes_from_a_part_file(self):
        half = len(self.bytes) // 2
        target = self.target("resumed.h5")
        with open(target + ".part", "wb") as f:
            f.write(self.bytes[:half])
        received = []
        path = self.client.download(self.job["job_id"], target, progress=received.append)
        with open(path, "rb") as f:
            self.assertEqual(f.read(), self.bytes)
        # Only the second half came over the wire (a Range request).
        self.assertEqual({r["resumed_from_bytes"] for r in received}, {half})
        self.assertGreater(received[0]["received_bytes"], half)
        self.assertEqual(received[-1]["received_bytes"], len(self.bytes))
        self.assertFalse(os.path.exists(target + ".part"))

    def test_a_part_file_from_something_else_is_replaced(self):
        target = self.target("stale.h5")
        with open(target + ".part", "wb") as f:
            f.write(b"\0" * 1000)  # right length for nothing: the hash tells
        path = self.client.download(self.job["job_id"], target, progress=False)
        with open(path, "rb") as f:
            self.assertEqual(hashlib.sha256(f.read()).hexdigest(), self.job["checksum"])

    def test_a_part_file_longer_than_the_result_is_replaced(self):
        target = self.target("long.h5")
        with open(target + ".part", "wb") as f:
            f.write(self.bytes + b"trailing garbage")
        path = self.client.download(self.job["job_id"], target, progress=False)
        with open(path, "rb") as f:
            self.assertEqual(f.read(), self.bytes)

    def test_a_corrupt_stored_file_is_deleted_and_raises(self):
        stored = glob.glob(
            os.path.join(env("EMSIM_TEST_DATA_DIR"), "results", f"{self.job['job_id']}-*.h5")
        )
        self.assertEqual(len(stored), 1, stored)
        with open(stored[0], "rb") as f:
            original = f.read()
        damaged = bytearray(original)
        damaged[len(damaged) // 2] ^= 0xFF  # one bit pattern flipped in storage
        try:
            with open(stored[0], "wb") as f:
                f.write(damaged)
            target = self.target("corrupt.h5")
            with self.assertRaises(emsim.ChecksumMismatchError) as caught:
                self.client.download(self.job["job_id"], target, progress=False)
            err = caught.exception
            self.assertEqual(err.expected, self.job["checksum"])
            self.assertEqual(err.actual, hashlib.sha256(bytes(damaged)).hexdigest())
            self.assertIn("was deleted", str(err))
            self.assertFalse(os.path.exists(target))
            self.assertFalse(os.path.exists(target + ".part"))
        finally:
            with open(stored[0], "wb") as f:
                f.write(original)

    def test_progress_counts_bytes(self):
        received = []
        self.client.download(
            self.job["job_id"], self.target("counted.h5"), progress=received.append
        )
        size = len(self.bytes)
        self.assertEqual(
            received[-1], {"received_bytes": size, "total_bytes": size, "resumed_from_bytes": 0}
        )

    def test_a_path_that_cannot_be_written_raises_the_os_error_at_once(self):
        retries = []
        client = emsim.Client(base_url(), env("EMSIM_TEST_DOWNLOAD_KEY"), on_retry=retries.append)
        missing = os.path.join(self.dir.name, "no-such-folder", "r.h5")
        with self.assertRaises(FileNotFoundError) as raised:
            client.download(self.job["job_id"], missing, progress=False)
        self.assertIn("does not exist", str(raised.exception))
        with self.assertRaises(IsADirectoryError):
            client.download(self.job["job_id"], self.dir.name, progress=False)
        # Not a network failure: no retries, and no EmsimConnectionError.
        self.assertEqual(retries, [])
        self.assertNotIsInstance(raised.exception, emsim.EmsimConnectionError)
        # run() says so before it submits anything.
        with self.assertRaises(FileNotFoundError):
            client.run(small_request(time_steps=10), missing, progress=False)

    def test_a_download_retried_after_a_cut_is_told_to_on_retry(self):
        retries = []
        client = emsim.Client(base_url(), env("EMSIM_TEST_DOWNLOAD_KEY"), on_retry=retries.append)
        # The first request to storage (not to the API) is cut before an answer: the network,
        # not the server, which is what the client handles.
        real_open = client._http.open
        cut = []

        def cut_once(url, **kwargs):
            if not cut and "/v1/" not in url:
                cut.append(url)
                raise ConnectionResetError("cut by the test")
            return real_open(url, **kwargs)

        client._http.open = cut_once
        path = client.download(self.job["job_id"], self.target("retried.h5"), progress=False)
        with open(path, "rb") as f:
            self.assertEqual(f.read(), self.bytes)
        self.assertEqual(len(retries), 1, retries)
        self.assertEqual(retries[0]["method"], "GET")
        self.assertEqual(retries[0]["url"], "(storage address)")
        self.assertEqual(retries[0]["retry"], 1)
        self.assertIn("cut by the test", retries[0]["reason"])

    def test_someone_elses_job_is_not_found(self):
        other = emsim.Client(base_url(), api_key(), retries=0)
        with self.assertRaises(emsim.JobNotFoundError):
            other.download(self.job["job_id"], self.target("theirs.h5"))
        self.assertFalse(os.path.exists(self.target("theirs.h5")))


if __name__ == "__main__":
    unittest.main()
