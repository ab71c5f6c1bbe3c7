"""Deprecated alias of :mod:`kpca.book.datasets`, kept for one release.

The book's helpers moved into :mod:`kpca.book`, so that ``import kpca``
presents the algorithms alone.  Import ``kpca.book.datasets`` instead; this
module will be removed in kpca 0.4.
"""

import warnings

from .book.datasets import *  # noqa: F403
from .book.datasets import __all__  # noqa: F401

warnings.warn(
    "kpca.datasets moved to kpca.book.datasets; the old name will be removed in "
    "kpca 0.4",
    DeprecationWarning,
    stacklevel=2,
)
