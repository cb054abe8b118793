"""``make serve``'s launcher refuses a bad setting in one line with exit status 2, before starting anything
(the class itself is served and tested in ``tests/browser/test_serve.py``)."""

import os
import subprocess

import pytest

from tests.browser.harness import ROOT


@pytest.mark.parametrize("setting, value", [("WORKERS", "0"), ("WORKERS", "two"), ("PORT", "-1"), ("PORT", "8o")])
def test_a_bad_serve_setting_is_one_line_and_exit_2(setting, value):
    done = subprocess.run(["deploy/serve"], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, setting: value})
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and f"'{value}'" in done.stderr and setting in done.stderr
    assert done.stdout == ""
