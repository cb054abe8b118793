"""What the engine's command lines share: one-line errors with exit status 2, a quiet Ctrl-C (exit
status 130) and a quiet end when the reader of the output goes away (``| head``; exit status 141), and
output files checked before any work and written whole or not at all."""

from __future__ import annotations

import argparse
import errno
import functools
import os
import shlex
import sys
import warnings
from pathlib import Path
from typing import Callable

#: Exit status of a run stopped by Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED = 130
#: Exit status of a run whose reader closed the pipe (128 + SIGPIPE), as shells report it.
BROKEN_PIPE = 141
#: Exit status of bad input, or of a run the machine cannot carry out (argparse's own).
BAD_INPUT = 2


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr with exit status 2 (no usage block)."""

    def error(self, message):
        self.exit(2, f"error: {message}\n")


def quiet_interrupt(main: Callable[..., int]) -> Callable[..., int]:
    """``main`` returning ``INTERRUPTED`` after one line on stderr when Ctrl-C stops it, ``BROKEN_PIPE``
    without a word when the reader of stdout has gone (``| head``), and ``BAD_INPUT`` after one line
    (``error: ...``, naming the path or the arguments) when the values given overflow
    (``ArithmeticError``), nest too deep (``RecursionError``), exhaust the memory (``MemoryError``) or
    a file cannot be read or written (``OSError``, e.g. a full disk); never a traceback. numpy's
    floating-point ``RuntimeWarning``s (overflow, invalid value) are gathered instead of printed: none
    before an ``error:`` line, one ``note:`` line after a run that ends well (``FloatingPointNotes``)."""
    @functools.wraps(main)
    def wrapped(argv=None) -> int:
        notes = FloatingPointNotes()
        try:
            with notes:
                status = main(argv)
            if status == 0:
                notes.report()
            return status
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            return INTERRUPTED
        except BrokenPipeError:
            # Whatever is still buffered would fail again at the interpreter's last flush.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return BROKEN_PIPE
        except (ArithmeticError, RecursionError, MemoryError, OSError) as err:
            print(f"error: {failure(err, sys.argv[1:] if argv is None else argv)}", file=sys.stderr)
            return BAD_INPUT
    return wrapped


class FloatingPointNotes:
    """Within ``with``: ``RuntimeWarning``s are kept (by message) instead of shown, other warnings shown as
    before; ``report()`` prints them as one line, e.g. ``note: floating-point warnings during the run
    (overflow encountered in exp); values that could not be computed are shown as nan or inf``."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def __enter__(self):
        self._shown = warnings.showwarning
        self._filters = warnings.catch_warnings()
        self._filters.__enter__()
        warnings.simplefilter("default", RuntimeWarning)
        warnings.showwarning = self._keep
        return self

    def __exit__(self, *exc) -> None:
        self._filters.__exit__(*exc)
        warnings.showwarning = self._shown

    def _keep(self, message, category, filename, lineno, file=None, line=None) -> None:
        if issubclass(category, RuntimeWarning):
            if str(message) not in self.messages:
                self.messages.append(str(message))
        else:
            self._shown(message, category, filename, lineno, file, line)

    def report(self) -> None:
        if self.messages:
            shown = "; ".join(self.messages[:3]) + ("; ..." if len(self.messages) > 3 else "")
            print(f"note: floating-point warnings during the run ({shown}); values that could not be computed are "
                  "shown as nan or inf", file=sys.stderr)


def failure(err: BaseException, argv) -> str:
    """One line saying what ``err`` was, naming its path (an ``OSError``) or the arguments ``argv``, and the fix."""
    if isinstance(err, OSError):
        where = f" {err.filename!r}" if err.filename else ""
        why = err.strerror or str(err) or errno.errorcode.get(err.errno, "an I/O error")
        return (f"could not read or write{where or ' a file'} ({why}); no output was left half-written: free space "
                f"or choose another path, and run again")
    given = shlex.join(str(arg) for arg in argv)
    what = {RecursionError: "the input nests too deeply", MemoryError: "the run needs more memory than there is"}
    cause = next((text for kind, text in what.items() if isinstance(err, kind)),
                 "a value leaves the range of float64")
    return f"{cause} ({type(err).__name__}: {err}) with the arguments {given!r}; give smaller or other values"


def check_output_file(flag: str, path: Path, *, suffix: str = "") -> Path:
    """The file to write for ``path`` (with ``suffix`` appended unless it ends so) if it can be written,
    else ``ValueError`` naming ``flag``, the path and why.

    Checked before any work, so a run never ends in a traceback after its computation: ``path`` must
    not be a folder, its folder must exist, and a file must be creatable there (tried, then removed).
    """
    if path.is_dir():
        raise ValueError(f"{flag} {str(path)!r} is a folder; give a file name")
    path = path if path.name.endswith(suffix) else path.with_name(path.name + suffix)
    folder = path.parent
    if not folder.is_dir():
        why = "is a file, not a folder" if folder.exists() else "does not exist"
        raise ValueError(f"{flag} {str(path)!r}: {str(folder)!r} {why}; give a path in an existing folder")
    if path.is_dir():
        raise ValueError(f"{flag} {str(path)!r} is a folder; give a file name")
    probe = _partial(path)
    try:
        probe.open("xb").close()
        probe.unlink()
    except OSError as err:
        raise ValueError(f"{flag} {str(path)!r} cannot be written ({err.strerror}); give a path you may write "
                         f"to") from None
    if path.exists() and not os.access(path, os.W_OK):
        raise ValueError(f"{flag} {str(path)!r} is read-only; give a path you may write to")
    return path


def _partial(path: Path) -> Path:
    """The hidden file beside ``path`` that ``write_whole`` fills before renaming it onto ``path``."""
    return path.with_name(f".{path.name}.{os.getpid()}.part")


def write_whole(path: Path, write: Callable[[object], None]) -> None:
    """Call ``write(file)`` on a hidden file beside ``path``, then rename it onto ``path``: the file
    appears complete or not at all (an interrupted or failed write leaves nothing behind)."""
    partial = _partial(path)
    try:
        with partial.open("xb") as file:
            write(file)
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
