"""What stops a program bot from starting, said as the host's or the program's own problem:
its log (`open_log`, refused through a symbolic link or when another user owns it;
`log_problem`, checked when the bot is made) and its file (`program_problem`: not
executable, or its ``#!`` interpreter missing; `why_not_started`)."""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
from collections.abc import Sequence

from stratego.errors import shown

__all__ = ["SYMLINK", "default_log", "log_problem", "log_reason", "open_log",
           "program_problem", "why_not_started"]


def open_log(path: str) -> int:
    """The log file `path` opened to append (a file descriptor): created readable by its
    owner only, never through a symbolic link, and (where files have owners) refused when
    another user owns it, since the bots' standard error and seeds go there (the default
    log lies in the shared temporary directory)."""
    flags = (os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
             | getattr(os, "O_BINARY", 0))  # Windows: no line ends rewritten
    try:
        fd = os.open(path, flags, 0o600)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK) and os.path.islink(path):
            raise PermissionError(exc.errno, SYMLINK) from None  # not "too many levels"
        raise
    getuid = getattr(os, "getuid", None)
    if getuid is not None and os.fstat(fd).st_uid != getuid():
        os.close(fd)
        raise PermissionError(0, f"the log {shown(path)} is owned by another user: give the "
                                 "bot a log of its own (the spec's log option)")
    return fd


SYMLINK = ("it is a symbolic link, and a log is never written through one (its target "
            "could be another user's file): name the file itself")


def log_reason(path: str, exc: OSError) -> str:
    """What `open_log` said of the log `path` when it refused it: its own reason, or the
    system's (``No such file or directory``, naming the missing folder)."""
    if exc.errno == errno.ENOENT:
        return _no_folder(path)
    return exc.strerror or str(exc)


def _no_folder(path: str) -> str:
    """The reason a log `path` in a folder that does not exist cannot be written."""
    return f"its folder {shown(os.path.dirname(path) or '.')} does not exist"


def log_problem(path: str) -> str | None:
    """Why the log `path` cannot be written (None when it can, as far as can be told
    without creating it): a missing folder, a symbolic link, a file another user owns or
    one that may not be written."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        folder = os.path.dirname(path) or "."
        if not os.path.isdir(folder):
            return _no_folder(path)
        if not os.access(folder, os.W_OK | os.X_OK):
            return f"its folder {shown(folder)} may not be written (permission denied)"
        return None
    except OSError as exc:
        return exc.strerror or str(exc)
    if stat.S_ISLNK(info.st_mode):
        return SYMLINK
    if stat.S_ISDIR(info.st_mode):
        return "it is a folder"
    getuid = getattr(os, "getuid", None)
    if getuid is not None and info.st_uid != getuid():
        return "it is owned by another user: give the bot a log of its own"
    if not os.access(path, os.W_OK):
        return "it may not be written (permission denied)"
    return None


def _shebang(path: str) -> list[str] | None:
    """The words of the ``#!`` line that starts the file `path` (None when it has none or
    cannot be read)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(256)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    return head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split()


def program_problem(argv: Sequence[str]) -> str | None:
    """Why the program of `argv`, a file that exists, cannot be run (None when it can, or
    it is not found: a program not found is for the spec, `stratego.bots.specs`, to
    refuse): it is not executable, or its ``#!`` line names an interpreter that is not
    there. POSIX only (elsewhere a script has no ``#!`` line the system reads)."""
    if os.name != "posix":
        return None
    program = argv[0]
    found = shutil.which(program)
    if found is None:
        if os.sep in program and os.path.isfile(program) and not os.access(program, os.X_OK):
            return (f"the file {shown(program)} is not executable (make it so with chmod +x, "
                    f"or name its interpreter in the command, such as 'python3 {program}')")
        return None
    words = _shebang(found)
    if not words:
        return None
    interpreter = words[0]
    if not (os.path.isfile(interpreter) and os.access(interpreter, os.X_OK)):
        why = "not executable" if os.path.isfile(interpreter) else "no such file"
        return (f"the file {shown(program)} exists, but the interpreter its #! line names, "
                f"{shown(interpreter)}, cannot be run ({why}): fix the #! line, or name "
                f"the interpreter in the command")
    if (os.path.basename(interpreter) == "env" and len(words) > 1
            and not words[1].startswith("-") and shutil.which(words[1]) is None):
        return (f"the file {shown(program)} exists, but the interpreter its #! line "
                f"names, {shown(words[1])} (through {interpreter}), is not on the path: "
                f"fix the #! line, or name the interpreter in the command")
    return None


def why_not_started(argv: Sequence[str], exc: OSError | ValueError) -> str:
    """What stopped the program of `argv` from starting (`exc`, from starting it), said as
    the program's own problem: not only the system's "No such file or directory" for a
    script whose interpreter is missing, or "Permission denied" for a file that is not
    executable."""
    if isinstance(exc, OSError) and exc.errno in (errno.ENOENT, errno.EACCES):
        problem = program_problem(argv)
        if problem is not None:
            return problem
    if isinstance(exc, OSError) and exc.errno == errno.ENOEXEC:
        return ("the system cannot run the file (Exec format error: a script needs a #! line "
                "naming its interpreter, or name the interpreter in the command)")
    return f"{getattr(exc, 'strerror', None) or exc}"


def default_log() -> str:
    """``stratego-bots.log`` in the temporary directory, one file per user where users have
    ids (``stratego-bots-1000.log``): the file is its owner's alone, so one shared name
    would lock every other user's programs out."""
    uid = os.getuid() if hasattr(os, "getuid") else None
    name = "stratego-bots.log" if uid is None else f"stratego-bots-{uid}.log"
    return os.path.join(tempfile.gettempdir(), name)
