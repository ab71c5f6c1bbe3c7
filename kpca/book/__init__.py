"""The book's helpers: its data, its figures, its symbolic algebra.

Nothing in :mod:`kpca`'s algorithms needs this subpackage; the chapters of the
book do.  It needs the ``book`` extra (``pip install "kpca[book]"``), and each
module loads on first use:

checks        the reusable checks of claims (shared with the tests)
datasets      rings, moons, circle points, R's eurodist, stored benchmark results
plotting      the book's figure style and the plots several chapters share
symbolic      sympy helpers for the symbolic claims
timing        best-of-n wall-clock timing for the cost illustrations

A chapter imports the library and the helpers side by side::

    import kpca
    from kpca import book

    book.plotting.use_book_style()
    X, y = book.datasets.rings()
"""

_LAZY_SUBMODULES = ("checks", "datasets", "plotting", "symbolic", "timing")


def __getattr__(name: str):
    if name in _LAZY_SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY_SUBMODULES))
