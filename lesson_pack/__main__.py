"""``python -m lesson_pack [--out DIR] [--values K]``: write the Lesson pack to DIR (default ``dist/lesson``), K values
on each ε or n slider (default 5; fewer build faster).

Bad input (DIR a file or inside one, a folder with other files, K outside 1-5) prints one line and exits with
status 2.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

from lesson_pack.out import check_out

DEFAULT_OUT = Path("dist") / "lesson"
#: The most values a slider has (``lesson_pack.content.VALUES``, kept here so that bad input costs no import).
MAX_VALUES = 5
#: The loggers of Streamlit's warnings that a cache or a context runs without a server (bare mode).
BARE_MODE_NOTICES = ("streamlit.runtime.caching.cache_data_api", "streamlit.runtime.scriptrunner_utils.script_run_context")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        """Bad input: one line, status 2."""
        self.exit(2, f"error: {message}\n")


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog="python -m lesson_pack", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the pack's folder (default dist/lesson)")
    parser.add_argument("--values", type=int, default=MAX_VALUES, choices=range(1, MAX_VALUES + 1), metavar="K",
                        help=f"values on each ε or n slider, 1 to {MAX_VALUES} (default {MAX_VALUES})")
    args = parser.parse_args(argv)
    for name in BARE_MODE_NOTICES:  # the steps' caches run without a server: Streamlit's notices of it say nothing
        logging.getLogger(name).addFilter(lambda record: record.levelno >= logging.ERROR)
    try:
        check_out(args.out)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    from lesson_pack.folder import build
    start = time.perf_counter()
    out = build(args.out, args.values)
    size = sum(path.stat().st_size for path in out.iterdir())
    print(f"wrote the Lesson pack to {out}/index.html ({size / 1e6:.1f} MB) in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
