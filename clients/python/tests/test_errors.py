"""Typed errors from a real server, retries honouring Retry-After, and one clear message when
the server cannot be reached (wrong address, TLS)."""

import http.server
import json
import os
import re
import shutil
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.request
from unittest import mock

import emsim
from support import api_key, base_url, env, free_port, long_request, small_request

CORRELATION_ID = re.compile(r"^[0-9a-f-]{36}$")


class TypedErrors(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = emsim.Client(base_url(), api_key(), retries=0)

    def assertCarries(self, err, status, code):
        self.assertEqual(err.status, status)
        self.assertEqual(err.error_code, code)
        self.assertTrue(err.detail)
        self.assertRegex(err.correlation_id or "", CORRELATION_ID)
        self.assertIn(err.detail, str(err))
        self.assertIn(err.correlation_id, str(err))

    def test_every_error_code_of_the_api_has_its_class(self):
        with urllib.request.urlopen(base_url() + "/openapi.json") as res:
            doc = json.load(res)
        codes = set()
        for item in doc["paths"].values():
            for op in item.values():
                for response in op["responses"].values():
                    for media in response.get("content", {}).values():
                        for example in media.get("examples", {}).values():
                            codes.add(example["value"]["error_code"])
        self.assertGreater(len(codes), 15)
        self.assertEqual(sorted(codes - set(emsim.ERROR_CODES)), [])
        for code in codes:
            self.assertIsNot(emsim.ERROR_CODES[code], emsim.ApiError, code)

    def test_validation_error_names_the_fields(self):
        request = small_request()
        request["domain"]["resolution"] = -1
        request["extra"] = True
        with self.assertRaises(emsim.ValidationError) as caught:
            self.client.submit(request)
        err = caught.exception
        self.assertCarries(err, 422, "validation_error")
        paths = [e.path for e in err.errors]
        self.assertIn("extra", paths)
        self.assertIn("domain.resolution", paths)
        self.assertIsInstance(err.errors[0], emsim.FieldError)

    def test_not_found_and_keys(self):
        with self.assertRaises(emsim.JobNotFoundError) as caught:
            self.client.status("3f6c2b1a-0000-4000-8000-000000000000")
        self.assertCarries(caught.exception, 404, "job_not_found")
        self.assertIsInstance(caught.exception, emsim.NotFoundError)

        # No key anywhere: the environment and the profile are both empty here.
        no_key = emsim.Client(base_url(), retries=0)
        with self.assertRaises(emsim.MissingApiKeyError) as caught:
            no_key.list()
        self.assertCarries(caught.exception, 401, "missing_api_key")
        with self.assertRaises(emsim.InvalidApiKeyFormatError) as caught:
            emsim.Client(base_url(), "emsim_typo", retries=0).list()
        self.assertCarries(caught.exception, 401, "invalid_api_key_format")
        with self.assertRaises(emsim.UnauthorizedError) as caught:
            emsim.Client(base_url(), env("EMSIM_TEST_UNKNOWN_KEY"), retries=0).list()
        self.assertCarries(caught.exception, 401, "unauthorized")
        self.assertIsInstance(caught.exception, emsim.AuthenticationError)

    def test_conflicts_and_cancel(self):
        client = emsim.Client(base_url(), env("EMSIM_TEST_CONFLICT_KEY"), retries=0)
        ack = client.submit(long_request())
        try:
            with self.assertRaises(emsim.SimulationAlreadyRunningError) as caught:
                client.submit(small_request())
            err = caught.exception
            self.assertCarries(err, 409, "simulation_already_running")
            self.assertEqual(err.active_job_id, ack["job_id"])
            self.assertGreaterEqual(err.retry_after, 1)
            with self.assertRaises(emsim.ResultsNotReadyError) as caught:
                client.download(ack["job_id"], os.path.join(tempfile.gettempdir(), "never.h5"))
            self.assertCarries(caught.exception, 409, "results_not_ready")
            self.assertIn(caught.exception.job_status, ("QUEUED", "RUNNING"))
        finally:
            cancelled = client.cancel(ack["job_id"])
        self.assertTrue(cancelled["cancel_requested"] or cancelled["status"] == "FAILED")
        job = client.wait(ack["job_id"], progress=False, timeout=60)
        self.assertEqual(job["status"], "FAILED")
        with self.assertRaises(emsim.JobFinishedError) as caught:
            client.cancel(ack["job_id"])
        self.assertCarries(caught.exception, 409, "job_finished")
        self.assertEqual(caught.exception.job_status, "FAILED")

        # run() raises JobFailedError for a job that FAILED: this one is cancelled as soon as
        # the first progress report arrives.
        def cancel_it(job):
            if not job["cancel_requested"] and job["status"] in ("QUEUED", "RUNNING"):
                client.cancel(job["job_id"])

        with self.assertRaises(emsim.JobFailedError) as caught:
            client.run(long_request(), progress=cancel_it, poll_interval=0.2)
        self.assertEqual(caught.exception.job["status"], "FAILED")
        self.assertRegex(str(caught.exception), r"FAILED: (?i:cancel)")


class RetryAfter(unittest.TestCase):
    """A server allowing 60 requests a minute with a burst of 60: the 61st gets 429 and
    Retry-After: 1."""

    def test_waits_what_retry_after_says_then_succeeds(self):
        retries = []
        client = emsim.Client(
            env("EMSIM_TEST_LIMITED_URL"),
            env("EMSIM_TEST_LIMITED_KEY"),
            retries=3,
            on_retry=retries.append,
        )
        started = time.monotonic()
        for _ in range(70):
            client.materials()
            if retries:
                break
        elapsed = time.monotonic() - started
        self.assertTrue(retries, "the server never answered 429")
        self.assertEqual(retries[0]["reason"], "HTTP 429")
        self.assertGreaterEqual(retries[0]["delay"], 1.0)
        self.assertGreaterEqual(elapsed, 1.0)

        # Without retries the 429 is raised, with what the server said.
        strict = emsim.Client(
            env("EMSIM_TEST_LIMITED_URL"), env("EMSIM_TEST_LIMITED_KEY"), retries=0
        )
        with self.assertRaises(emsim.RateLimitedError) as caught:
            for _ in range(70):
                strict.materials()
        err = caught.exception
        self.assertEqual((err.status, err.error_code), (429, "rate_limited"))
        self.assertGreaterEqual(err.retry_after, 1)
        self.assertRegex(err.correlation_id, CORRELATION_ID)

    def test_retry_after_too_long_is_raised_not_waited(self):
        client = emsim.Client(
            env("EMSIM_TEST_LIMITED_URL"),
            env("EMSIM_TEST_LIMITED_KEY"),
            retries=emsim.RetryPolicy(retries=3, max_retry_after=0.5),
        )
        started = time.monotonic()
        with self.assertRaises(emsim.RateLimitedError):
            for _ in range(70):
                client.materials()
        self.assertLess(time.monotonic() - started, 5)


class _NotEmsim(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"<html><body>It works!</body></html>"
        self.send_response(404 if self.path.startswith("/v1/") else 200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def _serve(handler, context=None):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    if context is not None:
        server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class WaitThroughOutage(unittest.TestCase):
    """A wait outlives polls that fail (the server restarting, a network drop): the status
    answers are stood in for here; what is tested is the client's polling."""

    def client_answering(self, answers):
        client = emsim.Client("http://127.0.0.1:9", "k", retries=0)
        calls = []

        def status(job_id):
            answer = answers[min(len(calls), len(answers) - 1)]
            calls.append(job_id)
            if isinstance(answer, Exception):
                raise answer
            return answer

        client.status = status
        return client, calls

    def test_polls_that_fail_do_not_end_the_wait(self):
        down = emsim.EmsimConnectionError("down", url="x", sent=False, reason="refused")
        busy = emsim.errors.InternalServerError(502, {"detail": "proxy", "error_code": "http_502"})
        client, calls = self.client_answering(
            [{"job_id": "j", "status": "RUNNING"}, down, busy, {"job_id": "j", "status": "COMPLETED"}]
        )
        with mock.patch("emsim.client.time.sleep"), mock.patch("sys.stderr"):
            job = client.wait("j", progress=False)
        self.assertEqual(job["status"], "COMPLETED")
        self.assertEqual(len(calls), 4)

    def test_past_the_outage_limit_or_a_404_the_error_is_raised(self):
        down = emsim.EmsimConnectionError("down", url="x", sent=False, reason="refused")
        client, _ = self.client_answering([down])
        with mock.patch("emsim.client.time.sleep"), mock.patch("sys.stderr"), mock.patch(
            "emsim.client.MAX_OUTAGE_SECONDS", 0.0
        ):
            with self.assertRaises(emsim.EmsimConnectionError):
                client.wait("j", progress=False)
        gone = emsim.errors.JobNotFoundError(404, {"detail": "no", "error_code": "job_not_found"})
        client, calls = self.client_answering([gone])
        with self.assertRaises(emsim.errors.JobNotFoundError):
            client.wait("j", progress=False)
        self.assertEqual(len(calls), 1)

    def test_the_wait_timeout_holds_through_an_outage(self):
        down = emsim.EmsimConnectionError("down", url="x", sent=False, reason="refused")
        client, calls = self.client_answering([down, down, {"job_id": "j", "status": "COMPLETED"}])
        with mock.patch("emsim.client.time.sleep"), mock.patch("sys.stderr"):
            with self.assertRaises(emsim.EmsimConnectionError):
                client.wait("j", timeout=0, progress=False)
        self.assertEqual(len(calls), 1)


class Unreachable(unittest.TestCase):
    def one_clear_message(self, client, pattern):
        with self.assertRaises(emsim.EmsimConnectionError) as caught:
            client.list()
        message = str(caught.exception)
        self.assertNotIn("\n", message)
        self.assertRegex(message, pattern)
        return caught.exception

    def test_nothing_listening(self):
        url = f"http://127.0.0.1:{free_port()}"
        err = self.one_clear_message(
            emsim.Client(url, "k", retries=0),
            rf"^cannot reach the emsim API at {url}: connection refused",
        )
        self.assertFalse(err.sent)

    def test_unknown_host(self):
        self.one_clear_message(emsim.Client("http://emsim.invalid", "k", retries=0), "unknown host")

    def test_https_to_an_http_server(self):
        url = base_url().replace("http://", "https://")
        self.one_clear_message(
            emsim.Client(url, "k", retries=0), r"TLS handshake failed.*http:// or https://"
        )

    @unittest.skipUnless(shutil.which("openssl"), "openssl makes the self-signed certificate")
    def test_untrusted_certificate(self):
        with tempfile.TemporaryDirectory() as folder:
            cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
            subprocess.run(
                [
                    "openssl",
                    "req",
                    "-x509",
                    "-newkey",
                    "rsa:2048",
                    "-nodes",
                    "-days",
                    "1",
                    "-subj",
                    "/CN=127.0.0.1",
                    "-keyout",
                    key,
                    "-out",
                    cert,
                ],
                check=True,
                capture_output=True,
            )
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(cert, key)
            server = _serve(_NotEmsim, context)
            try:
                url = f"https://127.0.0.1:{server.server_address[1]}"
                err = self.one_clear_message(
                    emsim.Client(url, "k", retries=0), r"TLS certificate not trusted \(self.signed"
                )
                self.assertFalse(err.sent)
            finally:
                server.shutdown()
                server.server_close()

    def test_an_address_that_is_not_the_api(self):
        server = _serve(_NotEmsim)
        try:
            url = f"http://127.0.0.1:{server.server_address[1]}"
            with self.assertRaises(emsim.NotFoundError) as caught:
                emsim.Client(url, "k", retries=0).list()
            self.assertRegex(
                str(caught.exception),
                r"answered HTTP 404 with text/html, not an emsim API error; is base_url",
            )
            self.assertNotIn("\n", str(caught.exception))
        finally:
            server.shutdown()
            server.server_close()

    def test_uncaught_it_is_one_line_without_a_chain(self):
        url = f"http://127.0.0.1:{free_port()}"
        run = subprocess.run(
            [sys.executable, "-c", f"import emsim; emsim.Client({url!r}, 'k', retries=0).list()"],
            capture_output=True,
            text=True,
            env={**os.environ},
        )
        self.assertNotEqual(run.returncode, 0)
        self.assertNotIn("During handling", run.stderr)
        self.assertNotIn("direct cause", run.stderr)
        self.assertRegex(
            run.stderr.strip().splitlines()[-1],
            r"^emsim\.errors\.EmsimConnectionError: cannot reach",
        )

    def test_bad_base_url(self):
        with self.assertRaisesRegex(ValueError, "base_url must be an http:// or https:// address"):
            emsim.Client("127.0.0.1:8080", "k")
        self.assertEqual(emsim.Client("http://h:1/v1/", "k").base_url, "http://h:1")


if __name__ == "__main__":
    unittest.main()
