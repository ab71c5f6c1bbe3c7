"""Deprecated alias of :mod:`kpca.book.plotting`, kept for one release.

The book's helpers moved into :mod:`kpca.book`, so that ``import kpca``
presents the algorithms alone.  Import ``kpca.book.plotting`` instead; this
module will be removed in kpca 0.4.
"""

import warnings

from .book.plotting import *  # noqa: F403
from .book.plotting import __all__  # noqa: F401

warnings.warn(
    "kpca.plotting moved to kpca.book.plotting; the old name will be removed in "
    "kpca 0.4",
    DeprecationWarning,
    stacklevel=2,
)
