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
#: whose products are matrix-vector products, rather than a block of k
#: (0: never).  Both run on the BLAS library's threads (kpca._threads.
#: rows_times).  A matrix that fits in the last-level cache makes the
#: matrix-vector product cheap: on the 2-core benchmark machine (AMD,
#: 32 MiB L3, quiet), a Gaussian kernel PCA fit with k = 10 took a median of
#: 11, 35 and 85 ms at n = 1000, 2000 and 3000 with the block of two,
#: against 14, 43 and 88 ms with the block of k; at n = 4000 (a 128 MB
#: matrix) the block of k was faster (130 against 169 ms).  An earlier
#: version split the block product between kpca's own threads, and then
#: the block of k was the robust choice on a busy machine.
PAIR_UP_TO = 3000

#: The block Lanczos basis holds at most ``max(LANCZOS_BASIS_BLOCKS * b,
#: LANCZOS_BASIS_ROWS)`` vectors of length n (b the block size) before a
#: thick restart: an ordinary kernel matrix converges well before the first
#: restart.  The basis is allocated as it grows (doubling from four
#: blocks), so a fit that converges in 90 vectors with a block of 10
#: allocates 160: 2 % of the n x n matrix at n = 8000.
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
