r"""Shared rules for the spectra the estimators keep: one home for each.

* the rank cut: eigenvalues at or below :data:`RANK_RTOL` times the largest
  count as zero (:func:`numerical_rank`), and an estimator keeps only the
  eigenpairs above it, warning when ``n_components`` asked for more
  (:func:`components_to_keep`);
* symmetrisation: a matrix symmetric up to round-off is made exactly
  symmetric, :math:`\tfrac12(A + A^\top)` (:func:`symmetrize`);
* negative eigenvalues: a matrix that should be a Gram matrix (a centred
  kernel matrix, a double-centred distance matrix) but has eigenvalues below
  :math:`-\mathrm{RANK\_RTOL}\cdot\mu_1` is not the Gram matrix of any
  points or feature vectors; :class:`NonEuclideanWarning` says so, with
  the negative mass (:func:`negative_spectrum`, :func:`warn_non_euclidean`).

This module is internal; :func:`kpca.numerical_rank`,
:data:`kpca.eigen.RANK_RTOL` and :class:`kpca.NonEuclideanWarning` are its
public face.
"""

from __future__ import annotations

import dataclasses
import warnings
from typing import Any

import numpy as np

from ._validation import check_array, check_positive_float

__all__ = [
    "RANK_RTOL",
    "NegativeMass",
    "NegativeSpectrum",
    "NonEuclideanWarning",
    "components_to_keep",
    "negative_mass_from_extremes",
    "negative_spectrum",
    "numerical_rank",
    "symmetrize",
    "symmetry_defect",
    "warn_non_euclidean",
]

#: Eigenvalues at or below ``RANK_RTOL`` times the largest are treated as zero:
#: below what double-precision centring and eigensolvers resolve, so never
#: divided by.
RANK_RTOL = 1e-10


class NonEuclideanWarning(UserWarning):
    """The dissimilarities are not the distances of any Euclidean configuration.

    Also raised for a kernel matrix that is not positive semi-definite after
    centring: it is then not the Gram matrix of any feature vectors, which
    is the same statement (a centred Gram matrix of points is positive
    semi-definite, and conversely).
    """


def numerical_rank(eigenvalues: Any, rtol: float = RANK_RTOL) -> int:
    r"""Number of eigenvalues above ``rtol`` times the largest one.

    This is the rank :math:`r` of the notes as a computer sees it:
    eigenvalues of a positive semi-definite matrix that are zero in exact
    arithmetic come out as round-off of either sign.

    Parameters
    ----------
    eigenvalues : array_like, shape (n,)
        Eigenvalues in any order.
    rtol : float, default ``RANK_RTOL``
        Relative threshold.

    Returns
    -------
    int
        The count, 0 if no eigenvalue is positive.

    Examples
    --------
    >>> import numpy as np
    >>> numerical_rank(np.array([4.0, 1.0, 3e-15, -2e-15]))
    2
    """
    w = check_array(eigenvalues, "eigenvalues", ndim=1, min_rows=0)
    rtol = check_positive_float(rtol, "rtol")
    if w.size == 0 or not np.max(w) > 0:
        return 0
    return int(np.count_nonzero(w > rtol * np.max(w)))


def components_to_keep(
    eigenvalues: np.ndarray,
    n_components: int | None,
    matrix: str,
    empty_message: str,
    stacklevel: int,
    *,
    indefinite: bool = False,
    scale: float = 0.0,
    roundoff: float = 0.0,
    advice: str = "",
) -> int:
    """How many leading eigenpairs an estimator keeps: the numerical rank.

    Raises ``ValueError(empty_message)`` when no eigenvalue is positive, and
    warns when ``n_components`` asked for more than the rank of ``matrix``.
    When the matrix is ``indefinite`` (it has eigenvalues below
    ``-RANK_RTOL`` times the largest, already reported by
    :func:`warn_non_euclidean`), the count is that of its positive
    eigenvalues, not a numerical rank, and the warning says so.  ``scale``
    is the largest magnitude of the whole spectrum when it is known to
    exceed the largest eigenvalue (a negative one larger in magnitude): the
    cut is then relative to it, so that round-off above zero is not kept.
    ``roundoff`` bounds the error of the eigenvalues of the matrix as it
    was computed (its entries' round-off, on the scale of the uncentred
    matrix): eigenvalues at or below it are not resolved and count as zero
    too; if none is left, ``ValueError`` ends with ``advice``, as does the
    warning when the round-off is why fewer than ``n_components`` are kept.
    """
    w = np.asarray(eigenvalues, dtype=float)
    top = max(float(np.max(w, initial=0.0)), float(scale))
    keep = int(np.count_nonzero(w > RANK_RTOL * top)) if top > 0 else 0
    if keep == 0:
        raise ValueError(empty_message)
    resolved = int(np.count_nonzero(w[:keep] > roundoff))
    if resolved == 0:
        raise ValueError(
            f"the {matrix} is lost in round-off: its largest eigenvalue "
            f"{w[0]:.3g} is below the round-off {roundoff:.3g} of "
            f"the matrix as computed; {advice}"
        )
    if n_components is not None and resolved < n_components:
        if resolved < keep:
            what = (
                f"the {resolved} eigenvalues of the {matrix} above the "
                f"round-off {roundoff:.3g} of the matrix as computed"
            )
        elif indefinite:
            what = (
                f"the number {keep} of positive eigenvalues of the {matrix}, "
                "which is not positive semi-definite"
            )
        else:
            what = f"the numerical rank {keep} of the {matrix}"
        warnings.warn(
            f"n_components={n_components} exceeds {what}; keeping "
            f"{resolved} components"
            + ("" if resolved == keep else f"; {advice}"),
            RuntimeWarning,
            stacklevel=stacklevel + 1,
        )
    return resolved


def symmetrize(A: np.ndarray, *, inplace: bool = False) -> np.ndarray:
    r"""The exactly symmetric :math:`\tfrac12(A + A^\top)`.

    In place (``A`` is overwritten and returned) or as a new array.  Both
    orders of the sum give the same rounded numbers, so the result is exactly
    symmetric.
    """
    if inplace:
        A += A.T
        A *= 0.5
        return A
    return 0.5 * (A + A.T)


# The symmetry check compares square tiles of this order (128 KiB of float64)
# with their mirror images while both are in the cache: 3.3 ms at n = 2000
# and 7 ms at n = 3000 on one core, against 29 ms at n = 3000 with tiles of
# 256 or 512, and 7 ms at n = 2000 for blocks of rows against the strided
# blocks of columns.
_TILE = 128


def symmetry_defect(M: np.ndarray) -> tuple[float, float]:
    r"""``(max |M - M.T|, max |M|)`` of a square array, in one pass.

    Each tile above the diagonal is compared with its mirror image below it
    while both are in the cache; the largest magnitude is taken over the
    tiles on and above the diagonal, so it may miss the one below by at
    most the asymmetry, which is added to it.  No n x n temporary.
    """
    n = M.shape[0]
    asymmetry = high = 0.0
    low = 0.0
    for i in range(0, n, _TILE):
        rows = slice(i, i + _TILE)
        for j in range(i, n, _TILE):
            cols = slice(j, j + _TILE)
            upper = M[rows, cols]
            gap = upper - M[cols, rows].T
            asymmetry = max(asymmetry, float(gap.max()), float(-gap.min()))
            high = max(high, float(upper.max()))
            low = min(low, float(upper.min()))
    return asymmetry, max(high, -low) + asymmetry


@dataclasses.dataclass(frozen=True)
class NegativeSpectrum:
    r"""What is known of the negative eigenvalues of a symmetric matrix.

    ``smallest`` is the smallest eigenvalue (exact, or for a large matrix an
    upper bound found by Lanczos: a Ritz value is never below it);
    ``largest`` the largest; ``count`` and ``mass``, the number of
    eigenvalues below ``-RANK_RTOL * largest`` and
    :math:`\sum_{\mu<0}|\mu| / \sum|\mu|`, are None when only the
    smallest eigenvalue was computed.
    """

    smallest: float
    largest: float
    count: int | None
    mass: float | None

    @property
    def significant(self) -> bool:
        """Whether an eigenvalue lies below ``-RANK_RTOL`` times the largest."""
        scale = max(abs(self.largest), abs(self.smallest))
        return self.smallest < -RANK_RTOL * scale


def negative_spectrum(
    spectrum: np.ndarray | None = None,
    *,
    smallest: float | None = None,
    largest: float | None = None,
) -> NegativeSpectrum:
    """Summarise the negative part of ``spectrum`` (all eigenvalues), or of
    the ``smallest`` and ``largest`` eigenvalues when that is all there is."""
    if spectrum is not None:
        spectrum = np.asarray(spectrum, dtype=float)
        top = float(spectrum.max())
        low = float(spectrum.min())
        scale = max(abs(top), abs(low))
        negative = spectrum < -RANK_RTOL * scale
        total = float(np.sum(np.abs(spectrum)))
        mass = (
            float(np.sum(np.abs(spectrum[negative])) / total)
            if total > 0
            else 0.0
        )
        return NegativeSpectrum(low, top, int(negative.sum()), mass)
    assert smallest is not None and largest is not None
    return NegativeSpectrum(float(smallest), float(largest), None, None)


@dataclasses.dataclass(frozen=True)
class NegativeMass:
    """The negative mass known from a spectrum's extremes (see
    :func:`negative_mass_from_extremes`): ``low <= high``, equal when exact;
    ``count`` is the number of eigenvalues below the cut when ``exact``,
    and a lower bound otherwise."""

    low: float
    high: float
    count: int
    exact: bool


def negative_mass_from_extremes(
    trace: float,
    frobenius2: float,
    top: np.ndarray,
    bottom: np.ndarray,
    n: int,
    cutoff: float,
) -> NegativeMass:
    r"""The negative mass of a symmetric matrix from its extreme eigenvalues.

        With eigenvalues :math:`\lambda_1 \ge \dots \ge \lambda_n`, the cut
        :math:`c` (round-off: ``RANK_RTOL`` times the largest magnitude), the
        mass below it :math:`N_c = \sum_{\lambda_a < -c} |\lambda_a|` and the
        trace :math:`t = \sum_a \lambda_a`, the negative mass is
        :math:`N_c / (t + 2N_c)`: the eigenvalues within :math:`[-c, 0)` count
        as zero, so it is below the full spectrum's
        :math:`N_c / \sum_a|\lambda_a|` by at most the relative amount
        :math:`2 n c / t`.

        ``top`` holds the :math:`k` largest eigenvalues (descending),
        ``bottom`` the :math:`m` smallest (ascending), ``frobenius2`` is
        :math:`\lVert A
    Vert_F^2 = \sum_a \lambda_a^2`.

        * If ``bottom[-1] >= -c``, every eigenvalue below the cut is in
          ``bottom``: :math:`N_c` and the count are exact.
        * Otherwise only bounds are known.  Below:
      :math:`N_c \ge \sum_j |\nu_j|` (the :math:`m` found), and, since the
      positive eigenvalues add up to at least those of ``top``,
      :math:`N_c \ge \sum_{i \le k} \lambda_i^+ - t - r c` with
      :math:`r = n - k - m` eigenvalues not found.  Above: those :math:`r`
      eigenvalues have the sum
      :math:`t_R = t - \sum_i \lambda_i - \sum_j \nu_j` and the sum of
      squares :math:`s_R = \lVert A\rVert_F^2 - \sum_i\lambda_i^2 -
      \sum_j\nu_j^2`, so by Cauchy--Schwarz their absolute values add up to
      at most :math:`\sqrt{r s_R}` and their negative part to at most
      :math:`(\sqrt{r s_R} - t_R)/2`; each is at least :math:`\nu_m`, so
      that part is also at most :math:`r|\nu_m|`.

    The mass :math:`N/(t + 2N)` increases with :math:`N` (:math:`t \ge 0`
        for a double-centred matrix of squared distances), so the bounds on
        :math:`N_c` give those on the mass.
    """
    top = np.asarray(top, dtype=float)
    bottom = np.asarray(bottom, dtype=float)

    def mass(negative: float) -> float:
        total = trace + 2.0 * negative
        return float(negative / total) if total > 0 else 0.0

    below = bottom < -cutoff
    found = float(np.sum(-bottom[below]))
    count = int(np.count_nonzero(below))
    if not below.all():
        value = mass(found)
        return NegativeMass(value, value, count, True)
    rest = max(n - top.size - bottom.size, 0)
    low = max(
        found,
        float(np.sum(np.maximum(top, 0.0))) - trace - rest * cutoff,
    )
    rest_sum = trace - float(np.sum(top)) - float(np.sum(bottom))
    # The subtraction loses about n * eps of the sum of squares.
    rest_squares = (
        max(frobenius2 - float(top @ top) - float(bottom @ bottom), 0.0)
        + n * np.finfo(float).eps * frobenius2
    )
    # An infinite squared norm (overflow) leaves the bound r |nu_m|.
    high = found + (
        max(
            0.0,
            min(
                0.5 * (float(np.sqrt(rest * rest_squares)) - rest_sum),
                rest * abs(float(bottom[-1])),
            ),
        )
        if rest
        else 0.0
    )
    return NegativeMass(mass(low), mass(max(high, low)), count, False)


def warn_non_euclidean(
    found: NegativeSpectrum, matrix: str, consequence: str, stacklevel: int
) -> None:
    """Warn with :class:`NonEuclideanWarning` if ``found`` is significant.

    The message names the ``matrix``, the negative eigenvalues (their count
    and mass when known, the most negative and its share of the largest
    magnitude) and the ``consequence`` for the estimator.
    """
    if not found.significant:
        return
    scale = max(abs(found.largest), abs(found.smallest))
    share = abs(found.smallest) / scale
    if found.count is not None:
        what = (
            f"{found.count} negative eigenvalue(s), negative mass "
            f"{found.mass:.2%} of the sum of |eigenvalues|, the most "
            f"negative {found.smallest:.4g} ({share:.2%} of the largest "
            "magnitude)"
        )
    else:
        what = (
            f"an eigenvalue at or below {found.smallest:.4g} ({share:.2%} "
            "of the largest magnitude)"
        )
    warnings.warn(
        f"the {matrix} is not positive semi-definite: it has {what}. "
        f"{consequence}",
        NonEuclideanWarning,
        stacklevel=stacklevel + 1,
    )
