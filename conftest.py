"""pytest's collection of doctests in kpca/ skips the deprecated aliases.

kpca/datasets.py, plotting.py and symbolic.py only forward to kpca.book and
warn when imported; their doctests are collected from kpca/book/.
"""

collect_ignore = [
    f"kpca/{name}.py" for name in ("datasets", "plotting", "symbolic")
]

# The dask example runs only where dask is installed (the extra kpca[dask]).
try:
    import dask.array  # noqa: F401
except ImportError:
    collect_ignore.append("kpca/_dask.py")
