"""Property test (hypothesis) of the command lines ``python -m engine.pipelines private-mean`` and
``python -m engine.audit``: whatever the flags' values (numbers of every size and sign,
NaN, inf, text, paths), the run ends with exit status 0 or 2, never an exception (a traceback), an
exit 2 says one line, and ``--releases-out`` leaves a whole file or nothing.

The command lines run in-process through ``main(argv)``. Valid sizes are drawn small (the huge ones
are refused by the memory budget before any work), so a run takes well under a second.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import spaces
from engine.audit.__main__ import main as audit_main
from engine.pipelines.__main__ import main as pipelines_main
from engine.pipelines.private_mean import MECHANISMS

PROFILE = settings(max_examples=int(os.environ.get("PROPERTY_EXAMPLES", 40)), deadline=None,
                   suppress_health_check=[HealthCheck.too_slow])

#: Integers of every sign and magnitude; the valid ones small enough to run fast.
INTEGER = st.one_of(st.integers(-3, 30), st.integers(-10**30, -4), st.integers(10**13, 10**30))
#: Reals of every sign and magnitude, NaN and infinities included.
REAL = st.floats(allow_nan=True, allow_infinity=True)
#: The text of a flag's value: a number written as an int, a float (1e12, nan, inf) or any text.
VALUE = st.one_of(INTEGER.map(str), REAL.map(repr), st.text(max_size=6))


def _run(main, argv) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``main(argv)`` run in-process; any exception fails the test."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as stop:
            status = stop.code
    return status, out.getvalue(), err.getvalue()


def _assert_clean(status, err):
    assert status in (0, 2), (status, err)
    assert "Traceback" not in err
    if status == 2:
        assert err.startswith("error: ") and err.count("\n") == 1, err


PRIVATE_MEAN_FLAGS = {
    "--n": st.one_of(INTEGER.map(str), VALUE), "--releases": st.one_of(INTEGER.map(str), VALUE),
    "--eps": st.one_of(REAL.map(repr), VALUE), "--delta": st.one_of(REAL.map(repr), VALUE),
    "--radius": st.one_of(REAL.map(repr), VALUE), "--k": st.one_of(INTEGER.map(str), VALUE),
    "--burn-in": st.one_of(INTEGER.map(str), VALUE), "--thin": st.one_of(INTEGER.map(str), VALUE),
    "--step": st.one_of(REAL.map(repr), VALUE), "--seed": st.one_of(INTEGER.map(str), VALUE),
    "--space": st.one_of(st.sampled_from(list(spaces.SPACES)), VALUE),
    "--mechanisms": st.one_of(st.lists(st.sampled_from(list(MECHANISMS)), min_size=1, max_size=4).map(",".join),
                              VALUE),
    "--outside": st.one_of(st.sampled_from(["refuse", "clip", "drop", "keep"]), VALUE),
}
#: Where ``--releases-out`` points, relative to a fresh folder holding a file ``blocker`` and a folder ``folder``.
OUTPUT = st.sampled_from(["out.npz", "out", "folder", "folder/out.npz", "blocker", "blocker/out.npz",
                          "missing/out.npz", "", "folder/"])


@PROFILE
@given(flags=st.dictionaries(st.sampled_from(list(PRIVATE_MEAN_FLAGS)), st.just(None), max_size=5).flatmap(
    lambda chosen: st.fixed_dictionaries({flag: PRIVATE_MEAN_FLAGS[flag] for flag in chosen})),
    output=st.one_of(st.none(), OUTPUT), json=st.booleans())
def test_private_mean_exits_0_or_2_in_one_line_and_writes_whole_files(flags, output, json):
    argv = ["private-mean", "--n", "12", "--releases", "5", "--burn-in", "20", "--thin", "2"]
    for flag, value in flags.items():
        argv += [f"{flag}={value}"]
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "blocker").write_text("x")
        (root / "folder").mkdir()
        before = sorted(p.relative_to(root) for p in root.rglob("*"))
        if output is not None:
            argv += ["--releases-out", str(root / output)]
        status, _, err = _run(pipelines_main, argv + (["--json"] if json else []))
        _assert_clean(status, err)
        after = sorted(p.relative_to(root) for p in root.rglob("*"))
        written = set(after) - set(before)
        assert not any(p.name.endswith(".part") for p in after)
        if status == 2 or output is None:
            assert not written and (root / "blocker").read_text() == "x"
        else:
            (new,) = written
            with np.load(root / new) as saved:
                assert saved["data"].ndim >= 2


#: Audits fast at any ε and budget the fuzz draws (the argument checks are shared by every audit; the
#: subspace and regression audits take seconds to minutes per batch at a small ε).
FUZZED_AUDITS = ("laplace", "euclidean-baseline", "tangent-gaussian", "control-half-noise", "analyze-gauss")
AUDIT_FLAGS = {
    "--space": st.one_of(st.sampled_from(list(spaces.SPACES) + ["euclidean"]), VALUE),
    "--eps": st.one_of(REAL.map(repr), VALUE),
    "--seed": st.one_of(INTEGER.map(str), VALUE),
    "--samples": st.one_of(st.integers(-3, 2000).map(str), INTEGER.map(str), VALUE),
}


@PROFILE
@given(name=st.one_of(st.sampled_from(FUZZED_AUDITS), st.text(max_size=6)),
       flags=st.dictionaries(st.sampled_from(list(AUDIT_FLAGS)), st.just(None), max_size=4).flatmap(
           lambda chosen: st.fixed_dictionaries({flag: AUDIT_FLAGS[flag] for flag in chosen})))
def test_audit_exits_0_or_2_in_one_line(name, flags):
    # A small budget unless --samples is drawn (the defaults take seconds each).
    argv = [name, "--samples", "400"] + [f"{flag}={value}" for flag, value in flags.items()]
    status, _, err = _run(audit_main, argv)
    _assert_clean(status, err)
