"""``python -m lesson_pack [--out DIR]``: write the Lesson pack to DIR (default ``dist/lesson``).

Bad input (DIR a file, or a folder with other files) prints one line and exits with status 2.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

from lesson_pack.out import check_out

DEFAULT_OUT = Path("dist") / "lesson"
#: The loggers of Streamlit's warnings that a cache or a context runs without a server (bare mode).
BARE_MODE_NOTICES = ("streamlit.runtime.caching.cache_data_api", "streamlit.runtime.scriptrunner_utils.script_run_context")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lesson_pack", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the pack's folder (default dist/lesson)")
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
    out = build(args.out)
    size = sum(path.stat().st_size for path in out.iterdir())
    print(f"wrote the Lesson pack to {out}/index.html ({size / 1e6:.1f} MB) in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
