"""Progress of a running job or a download.

In Jupyter, with ``tqdm`` installed, a tqdm bar (its notebook widget when ``ipywidgets`` is
there too). On a terminal, one line redrawn in place on stderr. Elsewhere (a log file, CI, a
pipe) plain lines when something changes (a new status, another 10 %) and at least every
15 s, so logs stay short but show the run is alive — as the emsim command line does.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Callable, Dict, Optional, TextIO, Union

#: What ``wait(progress=…)`` and ``download(progress=…)`` accept.
ProgressOption = Union[bool, str, Callable[[Dict[str, Any]], None], None]

_HEARTBEAT_S = 15.0


def in_notebook() -> bool:
    """True inside a Jupyter kernel (IPython's ZMQ shell), where a tqdm widget belongs."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    try:
        shell = ipython.get_ipython()  # type: ignore[attr-defined]
    except Exception:  # an IPython too old or half-imported: not a notebook we can draw in
        return False
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


def _tqdm_class() -> Optional[Any]:
    try:
        from tqdm.auto import tqdm  # type: ignore[import-not-found]
    except ImportError:
        return None
    return tqdm


def _bar(fraction: float, width: int = 20) -> str:
    filled = int(round(max(0.0, min(1.0, fraction)) * width))
    return "█" * filled + "░" * (width - filled)


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    return (
        f"{seconds // 60}:{seconds % 60:02d}"
        if seconds < 3600
        else f"{seconds // 3600}h{seconds // 60 % 60:02d}"
    )


def _bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"


class Reporter:
    """Shows the states of one task: ``show(fraction, text, key)`` as it goes, then ``close``.

    ``fraction`` is the part done (None when unknown), ``key`` what a log line is written for
    when it changes.
    """

    def __init__(self) -> None:
        self.started = time.monotonic()

    def elapsed(self) -> str:
        return _duration(time.monotonic() - self.started)

    def show(self, fraction: Optional[float], text: str, key: str) -> None:
        raise NotImplementedError

    def close(self, text: str, fraction: Optional[float] = None) -> None:
        raise NotImplementedError


class _Silent(Reporter):
    def show(self, fraction: Optional[float], text: str, key: str) -> None:
        pass

    def close(self, text: str, fraction: Optional[float] = None) -> None:
        pass


class _Terminal(Reporter):
    """One line redrawn in place (``\\r`` and erase-to-end-of-line)."""

    def __init__(self, stream: TextIO, label: str) -> None:
        super().__init__()
        self.stream = stream
        self.label = label
        self.drawn = False

    def show(self, fraction: Optional[float], text: str, key: str) -> None:
        bar = f"{_bar(fraction)} {fraction * 100:5.1f} % " if fraction is not None else ""
        self.stream.write(f"\r{self.label} {bar}{text}  {self.elapsed()}\x1b[K")
        self.stream.flush()
        self.drawn = True

    def close(self, text: str, fraction: Optional[float] = None) -> None:
        line = f"{self.label} {text}  {self.elapsed()}"
        self.stream.write(f"\r{line}\x1b[K\n" if self.drawn else f"{line}\n")
        self.stream.flush()


class _Log(Reporter):
    """Plain lines when the state changes (``key``), at most once a second, and every 15 s."""

    def __init__(
        self, stream: TextIO, label: str, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self.stream = stream
        self.label = label
        self.clock = clock
        self.last_key: Optional[str] = None
        self.last_at: Optional[float] = None
        self.last_text: Optional[str] = None

    def show(self, fraction: Optional[float], text: str, key: str) -> None:
        now = self.clock()
        changed = key != self.last_key and (self.last_at is None or now - self.last_at >= 1.0)
        if changed or (self.last_at is not None and now - self.last_at >= _HEARTBEAT_S):
            percent = f" {fraction * 100:.0f} %" if fraction is not None else ""
            self.stream.write(f"{self.label}{percent} {text}  {self.elapsed()}\n")
            self.stream.flush()
            self.last_key = key
            self.last_at = now
            self.last_text = text

    def close(self, text: str, fraction: Optional[float] = None) -> None:
        if text == self.last_text:
            return  # the last line already said it
        self.stream.write(f"{self.label} {text}  {self.elapsed()}\n")
        self.stream.flush()


class _Tqdm(Reporter):
    """A tqdm bar counting per mille (jobs) or bytes (downloads)."""

    def __init__(self, tqdm: Any, label: str, total: Optional[float], unit: str) -> None:
        super().__init__()
        scale = unit == "B"
        self.bar = tqdm(
            total=total,
            desc=label,
            unit=unit,
            unit_scale=scale,
            unit_divisor=1024 if scale else 1000,
            leave=True,
            # A job: the percentage, the bar, the time, and the status as the postfix.
            bar_format=None if scale else "{l_bar}{bar}| [{elapsed}<{remaining}{postfix}]",
        )
        self.unit = unit

    def _advance(self, fraction: Optional[float]) -> None:
        if fraction is not None and self.bar.total:
            self.bar.update(fraction * self.bar.total - self.bar.n)

    def show(self, fraction: Optional[float], text: str, key: str) -> None:
        self._advance(fraction)
        if self.unit != "B":
            self.bar.set_postfix_str(text, refresh=False)
        self.bar.refresh()

    def close(self, text: str, fraction: Optional[float] = None) -> None:
        self._advance(fraction)
        if self.unit != "B":
            self.bar.set_postfix_str(text, refresh=False)
        self.bar.close()


def reporter(
    option: ProgressOption,
    label: str,
    *,
    total: Optional[float] = None,
    unit: str = "%",
    stream: Optional[TextIO] = None,
) -> Reporter:
    """The reporter ``option`` asks for.

    ``True`` (or ``"auto"``): tqdm in a notebook when tqdm is installed, else the terminal line
    on a TTY, else log lines. ``"tqdm"``, ``"terminal"`` and ``"log"`` force one. ``False`` or
    ``None``: nothing.
    """
    out = stream if stream is not None else sys.stderr
    if option is False or option is None:
        return _Silent()
    if option is True:
        option = "auto"
    if option == "auto":
        tqdm = _tqdm_class() if in_notebook() else None
        if tqdm is not None:
            return _Tqdm(tqdm, label, total, unit)
        option = "terminal" if getattr(out, "isatty", lambda: False)() else "log"
    if option == "tqdm":
        tqdm = _tqdm_class()
        if tqdm is None:
            raise ImportError(
                "progress='tqdm' needs tqdm (apt install python3-tqdm, or pip install tqdm)"
            )
        return _Tqdm(tqdm, label, total, unit)
    if option == "terminal":
        return _Terminal(out, label)
    if option == "log":
        return _Log(out, label)
    raise ValueError(
        "progress must be True, False, 'auto', 'tqdm', 'terminal', 'log' or a callable, "
        f"got {option!r}"
    )


def describe_job(job: Dict[str, Any]) -> tuple:
    """(fraction or None, text, key) of a job record for a reporter."""
    status = str(job.get("status"))
    progress = job.get("progress") or {}
    fraction = (
        progress.get("fraction")
        if status == "RUNNING"
        else (1.0 if status == "COMPLETED" else None)
    )
    parts = [status]
    if status == "RUNNING" and progress:
        parts.append(f"step {progress.get('step')}/{progress.get('total_steps')}")
        rate = progress.get("mcells_per_second")
        if isinstance(rate, (int, float)):
            parts.append(f"{rate:.0f} Mcell/s")
    decile = int((fraction or 0) * 10)
    return fraction, "  ".join(parts), f"{status}:{decile}"


def describe_download(received: int, total: Optional[int]) -> tuple:
    fraction = received / total if total else None
    text = f"{_bytes(received)}" + (f" of {_bytes(total)}" if total else "")
    return fraction, text, f"{int((fraction or 0) * 4)}"


def describe_batch(batch: Dict[str, Any]) -> tuple:
    """(fraction, text, key) of a batch record for a reporter: its fraction over all jobs
    (a running job by its own progress) and how many jobs have ended."""
    status = str(batch.get("status"))
    counts = batch.get("counts") or {}
    fraction = (batch.get("progress") or {}).get("fraction")
    ended = int(counts.get("COMPLETED", 0)) + int(counts.get("FAILED", 0))
    failed = int(counts.get("FAILED", 0))
    parts = [status, f"jobs {ended}/{batch.get('job_count')} done"]
    if failed:
        parts.append(f"{failed} failed")
    decile = int((fraction or 0) * 10)
    return fraction, "  ".join(parts), f"{status}:{decile}:{failed}"


def batch_verdict(batch: Dict[str, Any]) -> str:
    """The last words on an ended batch: how many of its jobs completed and failed."""
    counts = batch.get("counts") or {}
    failed = int(counts.get("FAILED", 0))
    return (
        f"{batch.get('status')}: {counts.get('COMPLETED', 0)} of {batch.get('job_count')} jobs "
        f"completed" + (f", {failed} FAILED" if failed else "")
    )
