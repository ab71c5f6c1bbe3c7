"""The tuning knobs of the eigensolvers, in one place.

Each value was measured on the 2-core benchmark machine (Intel, 32 MiB L3,
OpenBLAS; ``benchmarks/README.md``) and decides only *how* an answer is
computed, never *what* it is: every solver's answer is checked, and the
dense decomposition takes over when a check fails.  On other hardware the
best values differ; change them here, and re-run
``benchmarks/bench_kernel_pca_scale.py`` to measure the effect.
"""

from __future__ import annotations

#: Up to this order a dense decomposition is as fast as anything iterative,
#: so ``"auto"`` takes it (and it takes it for more than a tenth of the
#: eigenpairs at any order).
DENSE_UP_TO = 600

#: Up to this order ``"auto"`` runs Lanczos with a block of two vectors,
#: whose products are matrix-vector products on the BLAS library's own
#: threads, rather than a block of k split between the cores (0: never).
#: On a quiet machine with the matrix in the last-level cache the block of
#: two was faster (k = 10, fresh processes, the Intel machine: 14, 31 and
#: 74 ms against 23, 48 and 86 ms at n = 1000, 2000 and 3000).  But each
#: of its 30-40 matrix-vector products synchronises the BLAS threads, and
#: on a busy machine, or fitted repeatedly in one process, a thread that
#: waits for a descheduled sibling loses its time slice: on the shared
#: 2-core AMD machine (32 MiB L3), in one process, the block of two took
#: 106, 280 and 1102 ms at n = 1000, 2000 and 3000 against 73, 72 and
#: 265 ms for the block of k (756 against 112 ms at n = 2000 with
#: OPENBLAS_CORETYPE=Sandybridge), and a whole Gaussian kernel PCA fit at
#: n = 2000 went from 1.05 to 4.73 times faster than scikit-learn's ARPACK
#: fit.  The block of k is the robust choice.
PAIR_UP_TO = 0

#: The block Lanczos basis holds at most ``max(LANCZOS_BASIS_BLOCKS * b,
#: LANCZOS_BASIS_ROWS)`` vectors of length n (b the block size) before a
#: thick restart: an ordinary kernel matrix converges well before the first
#: restart, and the basis is then 2.5 % of the n x n matrix at n = 8000.
LANCZOS_BASIS_BLOCKS = 20
LANCZOS_BASIS_ROWS = 200

#: Up to this order the check for negative eigenvalues of a kernel that is
#: not known to be positive semi-definite computes the whole spectrum (exact,
#: and as cheap as the dense fit); beyond it, Lanczos looks for the smallest
#: eigenvalue only.
FULL_SPECTRUM_UP_TO = DENSE_UP_TO

#: Lanczos steps of that search for the smallest eigenvalue: one product
#: with the kernel matrix each, a small price next to the fit's own.
NEGATIVE_CHECK_STEPS = 60
