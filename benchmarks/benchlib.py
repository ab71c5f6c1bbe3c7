"""Helpers the benchmark scripts share: spreads, peak memory, machine, versions.

The scripts import this module from their own directory (they put it on
``sys.path`` first, so they also run through ``runpy`` in the tests).
"""

from __future__ import annotations

import json
import os
import pathlib
import platform
import subprocess
import sys

import numpy as np


def spread(values) -> dict:
    """Median, min, max and quartiles of ``values``, and the values."""
    v = np.asarray(values, dtype=float)
    q1, med, q3 = np.percentile(v, [25, 50, 75])
    return {
        "median": float(med),
        "min": float(v.min()),
        "max": float(v.max()),
        "q1": float(q1),
        "q3": float(q3),
        "values": v.tolist(),
    }


def fmt_spread(s: dict, digits: int = 2) -> str:
    """``median [min-max]``."""
    return f"{s['median']:.{digits}f} [{s['min']:.{digits}f}-{s['max']:.{digits}f}]"


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


# -- peak memory of this process ----------------------------------------------------
def memory_status() -> dict[str, float]:
    """Resident set size now (``VmRSS``) and its peak (``VmHWM``), in MiB."""
    out = {}
    with open("/proc/self/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) / 1024.0  # kB -> MiB
    return out


def reset_peak_rss() -> float:
    """Reset the peak RSS (``VmHWM``) to the current RSS; return the RSS (MiB)."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    return memory_status()["VmRSS"]


# -- machine and versions -------------------------------------------------------------
def machine() -> dict:
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    ram = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal"):
                    ram = round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "ram_gib": ram,
        "system": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
    }


def _commit(root: pathlib.Path) -> str | None:
    """The git commit of the kpca source measured, when it is a checkout or an archive of one."""
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
        )
    except OSError:
        return None
    if out.returncode == 0:
        return out.stdout.strip()
    stamp = (
        root / "COMMIT"
    )  # written next to a git archive by whoever exports one
    return stamp.read_text().strip() if stamp.exists() else None


def blas_libraries() -> list[dict]:
    """The BLAS libraries loaded, as threadpoolctl reports them."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return []
    return [
        {
            key: info.get(key)
            for key in (
                "internal_api",
                "version",
                "architecture",
                "threading_layer",
                "num_threads",
            )
        }
        | {"library": os.path.basename(info.get("filepath", ""))}
        for info in threadpool_info()
        if info["user_api"] == "blas"
    ]


def versions() -> dict:
    import scipy
    import sklearn

    import kpca

    out = {
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "scikit-learn": sklearn.__version__,
        "kpca": kpca.__version__,
        "kpca_commit": _commit(
            pathlib.Path(kpca.__file__).resolve().parents[1]
        ),
    }
    blas = blas_libraries()
    if blas:
        out["blas"] = sorted(
            {
                f"{i['internal_api']} {i['version']} ({i['num_threads']} threads)"
                for i in blas
            }
        )
    return out


def stored_results(name: str) -> pathlib.Path:
    """Where a benchmark's results are stored: inside the package, so the
    chapters read them wherever kpca is installed
    (``kpca.book.datasets.load_benchmark_results``)."""
    root = pathlib.Path(__file__).resolve().parents[1]
    return root / "kpca" / "book" / "data" / f"{name}.json"


def run_in_new_process(script: str, task: dict) -> dict:
    """Run ``script --worker <task as JSON>`` in a new Python process.

    The worker prints its result as JSON on its last line of output.
    """
    out = subprocess.run(
        [sys.executable, script, "--worker", json.dumps(task)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    if out.returncode != 0:
        raise RuntimeError(f"worker {task} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])
