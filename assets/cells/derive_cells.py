"""Derive ``cells_k100.csv.gz`` from the cell outlines that ship inside the geomstats 2.8.0 wheel.

Usage (no geomstats import; it does not load on numpy >= 2.4)::

    pip download geomstats==2.8.0 --no-deps -d /tmp/gs
    unzip /tmp/gs/geomstats-2.8.0-py3-none-any.whl 'geomstats/datasets/data/cells/*' -d /tmp/gs
    PYTHONPATH=. python assets/cells/derive_cells.py /tmp/gs/geomstats/datasets/data/cells

Each outline (integer pixel coordinates, counter-clockwise) is resampled to 100 points equally spaced
in arc length, starting at the outline point farthest from the outline's centroid (a rotation-free
choice of landmark 0), and stored centred, in pixels, rounded to 0.1 px, with its cell line, treatment
and centroid size sqrt(Σ|z_j − z̄|²) of the 100 points.
"""

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from engine.data.kendall import resample_closed_curve

K = 100


def main(folder: str) -> None:
    src = Path(folder)
    blocks = [b for b in src.joinpath("cells.txt").read_text().split("\n\n") if b.strip()]
    lines = [s for s in src.joinpath("cell_lines.txt").read_text().split("\n") if s]
    treatments = [s for s in src.joinpath("treatments.txt").read_text().split("\n") if s]
    rows = []
    for i, block in enumerate(blocks):
        outline = np.array([[float(c) for c in row.split()] for row in block.strip().split("\n")])
        start = int(np.argmax(np.linalg.norm(outline - outline.mean(axis=0), axis=1)))
        points = resample_closed_curve(np.roll(outline, -start, axis=0), K)
        points -= points.mean(axis=0)
        size = float(np.sqrt(np.sum(points**2)))
        rows.append([i, lines[i], treatments[i], round(size, 3),
                     *np.round(points[:, 0], 1), *np.round(points[:, 1], 1)])
    columns = ["cell", "line", "treatment", "centroid_size"] + [f"x{j}" for j in range(K)] + [f"y{j}" for j in range(K)]
    out = Path(__file__).with_name("cells_k100.csv.gz")
    pd.DataFrame(rows, columns=columns).to_csv(out, index=False, compression={"method": "gzip", "mtime": 0})
    print(f"{len(rows)} cells -> {out}")


if __name__ == "__main__":
    main(sys.argv[1])
