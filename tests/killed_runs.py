"""A match run as a process of its own, killed with SIGKILL once its JSONL file holds some
games: what the tests of resuming after ``kill -9`` start from."""

from __future__ import annotations

import contextlib
import os
import pathlib
import signal
import subprocess
import time
from collections.abc import Iterator, Sequence


@contextlib.contextmanager
def running_until_saved(command: Sequence[str], path: pathlib.Path, games: int = 2,
                        seconds: float = 180.0) -> Iterator[subprocess.Popen[bytes]]:
    """`command` started and yielded, still running, once the JSONL file `path` holds
    `games` games (its header and a line a game; at most `seconds` of waiting); on leaving,
    killed with SIGKILL if it still runs, and waited for."""
    process = subprocess.Popen(list(command), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and process.poll() is None:
            if path.exists() and path.read_bytes().count(b"\n") >= games + 1:
                break
            time.sleep(0.02)
        assert process.poll() is None, "the run ended before it could be killed"
        yield process
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=60)
