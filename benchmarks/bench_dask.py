"""Nyström kernel PCA of a dask array on a LocalCluster against the serial chunked fit.

The same data, made block by block from the block's index (blocks of
``--block-rows`` rows, d = 10 standard-normal features), are fitted two ways:

* **serial**: ``NystroemKernelPCA.fit`` in this process, reading the blocks
  one at a time from a re-iterable object (the chunk-iterator path: two
  passes, the landmark sample and the moments, with O(block) memory);
* **cluster**: the blocks as a ``dask.array`` made by ``map_blocks`` (each
  block generated *on a worker*, never on the client), fitted on a
  ``distributed.LocalCluster`` with ``--workers`` worker processes of one
  thread each: one dask graph per pass, the partial moments of each block
  where it lives, a tree of ``StreamingMoments.merge``.

For each n the two are interleaved over ``--rounds`` rounds (the order
alternates), on a machine that may be shared: the ratio of the wall times is
taken within each round and its median reported, with throughput in rows per
second.  Peak memory is the peak resident set size (``VmHWM``, reset through
``/proc/self/clear_refs`` before each run) of the client process and of each
worker process.  Both fits must give the same eigenvalues (relative 1e-8),
or the script stops.

Results go to ``kpca/book/data/dask_scale.json`` with the machine, versions,
date and load.

Usage::

    python benchmarks/bench_dask.py                      # n = 10^6 and 10^7
    python benchmarks/bench_dask.py --sizes 1000000 --rounds 3
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import pathlib
import platform
import statistics
import time

import numpy as np

D = 10
OUT = (
    pathlib.Path(__file__).resolve().parent.parent
    / "kpca"
    / "book"
    / "data"
    / "dask_scale.json"
)


def make_block(index: int, rows: int) -> np.ndarray:
    """Block ``index`` of the data: reproducible from its index alone."""
    return np.random.default_rng([7, index]).standard_normal((rows, D))


def _dask_block(rows: int, block_id=None) -> np.ndarray:
    return make_block(block_id[0], rows)


class Blocks:
    """The blocks one at a time, as often as they are iterated (serial fit)."""

    def __init__(self, n_blocks: int, rows: int) -> None:
        self.n_blocks, self.rows = n_blocks, rows

    def __iter__(self):
        for i in range(self.n_blocks):
            yield make_block(i, self.rows)


def _peak_rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _reset_peak() -> None:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def model(m: int):
    from kpca import NystroemKernelPCA

    return NystroemKernelPCA(
        10, sigma=float(np.sqrt(D / 2)), n_landmarks=m, random_state=0
    )


def run_serial(n_blocks: int, rows: int, m: int) -> dict:
    _reset_peak()
    start = time.perf_counter()
    fitted = model(m).fit(Blocks(n_blocks, rows))
    wall = time.perf_counter() - start
    return dict(
        wall=wall,
        client_peak_mb=_peak_rss_mb(),
        eigenvalues=fitted.eigenvalues_.tolist(),
    )


def run_cluster(client, n_blocks: int, rows: int, m: int) -> dict:
    from functools import partial

    import dask.array as da

    X = da.map_blocks(
        partial(_dask_block, rows),
        dtype=float,
        chunks=((rows,) * n_blocks, (D,)),
        meta=np.empty((0, D)),
    )
    client.run(_reset_peak)
    _reset_peak()
    cpu = time.process_time()
    start = time.perf_counter()
    fitted = model(m).fit(X)
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu
    workers = client.run(_peak_rss_mb)
    return dict(
        wall=wall,
        client_cpu=cpu,
        client_peak_mb=_peak_rss_mb(),
        worker_peak_mb=sorted(workers.values()),
        eigenvalues=fitted.eigenvalues_.tolist(),
    )


def machine() -> dict:
    import dask
    import distributed

    import kpca

    return dict(
        date=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        platform=platform.platform(),
        cpus=os.cpu_count(),
        load_before=os.getloadavg(),
        python=platform.python_version(),
        numpy=np.__version__,
        dask=dask.__version__,
        distributed=distributed.__version__,
        kpca=kpca.__version__,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10**6, 10**7])
    parser.add_argument("--block-rows", type=int, default=250_000)
    parser.add_argument("--landmarks", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--rounds-large",
        type=int,
        default=1,
        help="rounds for n >= 10^7 (each takes minutes)",
    )
    args = parser.parse_args()

    import distributed

    info = machine()
    results = []
    with (
        distributed.LocalCluster(
            n_workers=args.workers,
            processes=True,
            threads_per_worker=1,
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        for n in args.sizes:
            rows = min(args.block_rows, n)
            n_blocks = n // rows
            rounds = args.rounds if n < 10**7 else args.rounds_large
            serial, on_cluster = [], []
            for r in range(rounds):
                order = (
                    ("serial", "cluster")
                    if r % 2 == 0
                    else ("cluster", "serial")
                )
                for which in order:
                    if which == "serial":
                        serial.append(
                            run_serial(n_blocks, rows, args.landmarks)
                        )
                    else:
                        on_cluster.append(
                            run_cluster(client, n_blocks, rows, args.landmarks)
                        )
                np.testing.assert_allclose(
                    on_cluster[-1]["eigenvalues"],
                    serial[-1]["eigenvalues"],
                    rtol=1e-8,
                )
                print(
                    f"n={n:>9,} round {r + 1}: serial {serial[-1]['wall']:.1f} s, "
                    f"cluster {on_cluster[-1]['wall']:.1f} s",
                    flush=True,
                )
            ratios = [
                s["wall"] / c["wall"]
                for s, c in zip(serial, on_cluster, strict=True)
            ]
            entry = dict(
                n=n,
                block_rows=rows,
                n_blocks=n_blocks,
                landmarks=args.landmarks,
                workers=args.workers,
                rounds=rounds,
                serial_wall_s=[s["wall"] for s in serial],
                cluster_wall_s=[c["wall"] for c in on_cluster],
                speedup_median=statistics.median(ratios),
                serial_rows_per_s=n
                / statistics.median(s["wall"] for s in serial),
                cluster_rows_per_s=n
                / statistics.median(c["wall"] for c in on_cluster),
                serial_peak_mb=max(s["client_peak_mb"] for s in serial),
                cluster_client_peak_mb=max(
                    c["client_peak_mb"] for c in on_cluster
                ),
                cluster_client_cpu_s=[c["client_cpu"] for c in on_cluster],
                cluster_worker_peak_mb=max(
                    max(c["worker_peak_mb"]) for c in on_cluster
                ),
            )
            results.append(entry)
            # Written after each n: a long run keeps what it has measured.
            info["load_after"] = os.getloadavg()
            OUT.write_text(
                json.dumps(dict(machine=info, results=results), indent=1)
                + "\n"
            )
            print(
                json.dumps(
                    {k: v for k, v in entry.items() if "wall" not in k}
                ),
                flush=True,
            )
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
