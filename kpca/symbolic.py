"""Deprecated alias of :mod:`kpca.book.symbolic`, kept for one release.

The book's helpers moved into :mod:`kpca.book`, so that ``import kpca``
presents the algorithms alone.  Import ``kpca.book.symbolic`` instead; this
module will be removed in kpca 0.4.
"""

import warnings

from .book.symbolic import *  # noqa: F403
from .book.symbolic import __all__  # noqa: F401

warnings.warn(
    "kpca.symbolic moved to kpca.book.symbolic; the old name will be removed in "
    "kpca 0.4",
    DeprecationWarning,
    stacklevel=2,
)
