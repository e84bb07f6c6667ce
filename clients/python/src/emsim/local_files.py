"""The files a download writes on this machine, kept apart from the network's failures.

A folder that does not exist, a path that is a folder or a full disk is not "the server cannot
be reached": ``check_writable`` raises the ``OSError`` writing would, before any request, and
``local`` marks an error of a file operation during a download so that it is raised as it is,
without the retries and the ``EmsimConnectionError`` that network failures get.
"""

from __future__ import annotations

import errno
import os
import pathlib
from typing import Callable, TypeVar

T = TypeVar("T")


def check_writable(target: pathlib.Path) -> None:
    """Raises the ``OSError`` that writing ``target`` (and ``<target>.part`` beside it) would:
    ``FileNotFoundError`` for a missing folder, ``IsADirectoryError`` for a folder,
    ``PermissionError`` for a folder that cannot be written."""
    folder = target.absolute().parent
    if not folder.is_dir():
        raise FileNotFoundError(errno.ENOENT, f"the folder {folder} does not exist", str(target))
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, "that is a folder; name the file to write", str(target))
    if not os.access(folder, os.W_OK):
        raise PermissionError(errno.EACCES, f"the folder {folder} is not writable", str(target))


class LocalFileError(Exception):
    """An ``OSError`` from a file on this machine, carried past the network's handlers."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


def local(operation: Callable[[], T]) -> T:
    """Runs a file operation; its ``OSError`` comes out as ``LocalFileError``."""
    try:
        return operation()
    except OSError as err:
        raise LocalFileError(err) from err
