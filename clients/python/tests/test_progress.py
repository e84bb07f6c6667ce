"""What ``wait`` and ``download`` show: a line redrawn on a terminal (run in a real pseudo-
terminal here), plain lines in a log, a tqdm bar when asked or in Jupyter."""

import os
import pty
import select
import subprocess
import sys
import tempfile
import textwrap
import unittest

import emsim
from support import base_url, env, small_request

SCRIPT = textwrap.dedent(
    """
    import os, sys
    if os.environ.get("IMPORT_IPYTHON"):
        import IPython  # what a Jupyter kernel has imported before any cell runs
    import emsim
    client = emsim.Client(os.environ["EMSIM_TEST_BASE_URL"], os.environ["KEY"])
    job_id = client.submit({request!r})["job_id"]
    mode = sys.argv[1]
    progress = True if mode == "auto" else mode
    client.wait(job_id, poll_interval=0.2, progress=progress)
    client.download(job_id, os.path.join(sys.argv[2], job_id + ".h5"), progress=progress)
    """
)


def run_script(mode, *, tty, extra_path=None):
    """Runs SCRIPT with stderr on a pseudo-terminal (``tty``) or a pipe; returns stderr."""
    request = small_request(time_steps=6000)
    request["fdtd_settings"]["convergence_threshold"] = 0  # all 6000 steps: progress to show
    script = SCRIPT.format(request=request)
    environ = {**os.environ, "KEY": env("EMSIM_TEST_PROGRESS_KEY")}
    if extra_path:
        environ["PYTHONPATH"] = extra_path + os.pathsep + environ.get("PYTHONPATH", "")
        environ["IMPORT_IPYTHON"] = "1"
    with tempfile.TemporaryDirectory() as folder:
        args = [sys.executable, "-c", script, mode, folder]
        if not tty:
            run = subprocess.run(args, capture_output=True, text=True, env=environ, timeout=120)
            assert run.returncode == 0, run.stderr
            return run.stderr
        master, slave = pty.openpty()
        child = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave, env=environ
        )
        os.close(slave)
        output = b""
        while True:
            ready, _, _ = select.select([master], [], [], 120)
            if not ready:
                child.kill()
                raise AssertionError("no output for 120 s")
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            output += chunk
        os.close(master)
        assert child.wait(timeout=30) == 0, output.decode("utf-8", "replace")
        return output.decode("utf-8", "replace")


class Progress(unittest.TestCase):
    def test_terminal_line_redrawn_in_place(self):
        out = run_script("auto", tty=True)
        # Carriage returns redraw one line; erase-to-end clears what a longer line left.
        self.assertGreater(out.count("\r"), 2)
        self.assertIn("\x1b[K", out)
        self.assertRegex(out, r"job [0-9a-f]{8} .*QUEUED|job [0-9a-f]{8} .*RUNNING")
        # The terminal turns the final newline into \r\n.
        self.assertRegex(out, r"\rjob [0-9a-f]{8} COMPLETED  \d:\d\d\x1b\[K\r?\n")
        self.assertRegex(out, r"download [0-9a-f]{8} .* KiB of .* KiB")

    def test_log_lines_without_a_terminal(self):
        out = run_script("auto", tty=False)
        self.assertNotIn("\r", out)
        self.assertNotIn("\x1b", out)
        lines = out.strip().splitlines()
        self.assertRegex(lines[0], r"^job [0-9a-f]{8}( \d+ %)? (QUEUED|RUNNING)")
        self.assertTrue(
            any(re_line.startswith("job ") and "COMPLETED" in re_line for re_line in lines)
        )
        self.assertLess(len(lines), 30)  # throttled: not one line per poll

    def test_tqdm_when_asked(self):
        out = run_script("tqdm", tty=False)
        self.assertRegex(out, r"job [0-9a-f]{8}: 100%\|█+\| \[[0-9:]+<[0-9:]+, COMPLETED\]")
        self.assertRegex(out, r"download [0-9a-f]{8}: 100%\|")

    def test_tqdm_in_jupyter(self):
        # Jupyter is not installed here: a stand-in IPython module whose shell has the class
        # name of the Jupyter kernel's is what in_notebook() looks for.
        with tempfile.TemporaryDirectory() as folder:
            os.mkdir(os.path.join(folder, "IPython"))
            with open(os.path.join(folder, "IPython", "__init__.py"), "w") as f:
                f.write(
                    "class ZMQInteractiveShell: pass\n"
                    "_shell = ZMQInteractiveShell()\n"
                    "def get_ipython(): return _shell\n"
                )
            out = run_script("auto", tty=False, extra_path=folder)
        self.assertRegex(out, r"job [0-9a-f]{8}: 100%\|")

    def test_not_a_notebook_here(self):
        self.assertFalse(emsim.progress.in_notebook())

    def test_bad_option(self):
        with self.assertRaisesRegex(ValueError, "progress must be"):
            emsim.Client(base_url(), "k").wait("x", progress="fancy")


if __name__ == "__main__":
    unittest.main()
