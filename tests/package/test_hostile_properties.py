"""Property-based tests of kpca under hostile input (issue 25).

Each test runs the examples of the active Hypothesis profile ("dev" by
default, "ci" in CI; see tests/conftest.py), capped per test so that the
whole file stays within seconds on a loaded 2-core machine.
"""

import copy
import threading
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import kpca
from kpca import _threads


def capped(n: int) -> settings:
    """The active profile, with at most ``n`` examples."""
    return settings(
        max_examples=min(n, settings.default.max_examples),
        suppress_health_check=[HealthCheck.too_slow],
    )


# Data anywhere in float64's range: a base pattern times 10^scale, plus an
# offset 10^shift (or none).
@st.composite
def data_anywhere(draw, max_rows=12, max_cols=3):
    n = draw(st.integers(3, max_rows))
    d = draw(st.integers(1, max_cols))
    seed = draw(st.integers(0, 2**32 - 1))
    base = np.random.default_rng(seed).normal(size=(n, d))
    scale = 10.0 ** draw(st.integers(-300, 300))
    shift = draw(st.sampled_from([0.0, 1.0]))
    shift *= 10.0 ** draw(st.integers(-300, 300))
    with np.errstate(over="ignore"):
        X = base * scale + shift
    assume(np.all(np.isfinite(X)))
    return X


ESTIMATORS = {
    "KernelPCA-gaussian": lambda: kpca.KernelPCA(sigma=1.0),
    "KernelPCA-linear": lambda: kpca.KernelPCA(kernel="linear"),
    "KernelPCA-polynomial": lambda: kpca.KernelPCA(kernel="polynomial"),
    "PCA": lambda: kpca.PCA(),
    "ClassicalMDS": lambda: kpca.ClassicalMDS(1),
    "Nystroem": lambda: kpca.NystroemKernelPCA(n_landmarks=5),
    "Nystroem-linear": lambda: kpca.NystroemKernelPCA(
        kernel="linear", n_landmarks=5
    ),
    "RandomFourier": lambda: kpca.RandomFourierKernelPCA(n_random_features=20),
}


def fitted_arrays(model):
    return {
        name: value
        for name, value in vars(model).items()
        if name.endswith("_") and not name.startswith("_")
    }


@capped(60)
@given(X=data_anywhere(), name=st.sampled_from(sorted(ESTIMATORS)))
def test_a_fit_is_finite_or_a_value_error(X, name):
    """No NaN, no infinity and no ratio above 1, wherever the data lie."""
    model = ESTIMATORS[name]()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no NumPy overflow warnings
        warnings.simplefilter("ignore", kpca.NonEuclideanWarning)
        warnings.filterwarnings("ignore", "n_components=", RuntimeWarning)
        try:
            model.fit(X)
        except ValueError as exc:
            assert (
                "scale" in str(exc)
                or "centre" in str(exc)
                or (
                    "no positive eigenvalue" in str(exc)
                    or "zero variance" in str(exc)
                    or "no component" in str(exc)
                )
            ), str(exc)
            return
    for attribute, value in fitted_arrays(model).items():
        if isinstance(value, (float, np.ndarray)):
            assert np.all(np.isfinite(value)), attribute
    ratio = getattr(model, "explained_variance_ratio_", None)
    if ratio is not None:
        assert np.all(ratio > 0) and ratio.sum() <= 1 + 1e-9


HOSTILE_INPUTS = [
    np.array([[np.nan, 1.0], [2.0, 3.0], [4.0, 5.0]]),
    np.array([[1.0, np.inf], [2.0, 3.0], [4.0, 5.0]]),
    np.ones((3, 2)) * (1 + 1j),
    np.ones(4),
    np.ones((0, 2)),
    "not data",
    [[1.0], [2.0, 3.0]],
    np.ones((3, 2)) * 1e300 * np.array([[1.0], [-1.0], [0.5]]),
]

BAD_PARAMETERS = {
    "KernelPCA-gaussian": [
        {"sigma": 1e-200},
        {"sigma": -1.0},
        {"kernel": "x"},
    ],
    "KernelPCA-linear": [{"n_components": 0}, {"center": "yes"}],
    "KernelPCA-polynomial": [{"degree": -1}, {"coef0": np.nan}],
    "PCA": [{"solver": "qr"}, {"n_components": 1.5}],
    "ClassicalMDS": [{"metric": "cosine"}, {"n_components": None}],
    "Nystroem": [{"sigma": 1e300}, {"n_landmarks": 0}],
    "Nystroem-linear": [{"landmarks": np.ones((2, 7))}],
    "RandomFourier": [{"sigma": 1e-170}, {"n_random_features": -3}],
}


@capped(40)
@given(
    name=st.sampled_from(sorted(ESTIMATORS)),
    bad_data=st.sampled_from(range(len(HOSTILE_INPUTS))),
    bad_parameter=st.integers(0, 2),
    use_parameter=st.booleans(),
)
def test_a_failed_refit_changes_no_fitted_attribute(
    name, bad_data, bad_parameter, use_parameter
):
    X = np.random.default_rng(1).normal(size=(15, 2))
    model = ESTIMATORS[name]().fit(X)
    before = copy.deepcopy(fitted_arrays(model))
    if use_parameter:
        choices = BAD_PARAMETERS[name]
        model.set_params(**choices[bad_parameter % len(choices)])
        refit_on = X
    else:
        refit_on = HOSTILE_INPUTS[bad_data]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises((TypeError, ValueError)):
            model.fit(refit_on)
    after = fitted_arrays(model)
    assert after.keys() == before.keys()
    for attribute, value in before.items():
        if isinstance(value, np.ndarray):
            np.testing.assert_array_equal(after[attribute], value)
        else:
            assert after[attribute] == value, attribute


@capped(30)
@given(
    offset_exponent=st.integers(0, 12),
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(4, 30),
)
def test_linear_kernel_pca_is_exact_far_from_the_origin(
    offset_exponent, seed, n
):
    rng = np.random.default_rng(seed)
    X = 10.0**offset_exponent + rng.normal(size=(n, 2)) * [1.0, 0.05]
    Xl = X.astype(np.longdouble)
    centred = (Xl - Xl.mean(axis=0)).astype(float)
    exact = np.linalg.svd(centred, compute_uv=False) ** 2 / n
    model = kpca.KernelPCA(kernel="linear").fit(X)
    assert model.n_components_ == 2
    np.testing.assert_allclose(model.explained_variance_, exact, rtol=1e-8)
    scale = np.abs(model.fit_transform(X)).max()
    np.testing.assert_allclose(
        model.transform(X), model.fit_transform(X), atol=1e-9 * scale
    )


@capped(25)
@given(
    X=data_anywhere(max_rows=40, max_cols=2).filter(
        lambda X: 1e-100 < np.abs(X).max() < 1e100
    ),
    kernel=st.sampled_from(["gaussian", "linear", "polynomial", "fourier"]),
    cuts=st.lists(st.floats(0.05, 0.95), min_size=1, max_size=4),
    m=st.integers(2, 15),
)
def test_the_chunking_changes_nothing_beyond_round_off(X, kernel, cuts, m):
    n = X.shape[0]
    edges = sorted({max(1, min(n - 1, int(c * n))) for c in cuts})
    sigma = float(X.std()) or 1.0

    def make():
        if kernel == "fourier":
            return kpca.RandomFourierKernelPCA(
                sigma=sigma, n_random_features=m
            )
        return kpca.NystroemKernelPCA(
            kernel=kernel, sigma=sigma, n_landmarks=m
        )

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            whole = make().fit(X)
        except ValueError:
            with pytest.raises(ValueError):
                make().fit(np.split(X, edges))
            return
        parts = make().fit(np.split(X, edges))
    assert parts.n_components_ == whole.n_components_
    # Round-off of the scatter, magnified by 1/lambda_r <= 1e10/lambda_1
    # (the landmarks' rank cut): up to about 1e-5 of the largest.
    np.testing.assert_allclose(
        parts.eigenvalues_,
        whole.eigenvalues_,
        rtol=1e-6,
        atol=1e-5 * whole.eigenvalues_[0],
    )


PARAMETER_CHANGES = st.fixed_dictionaries(
    {},
    optional={
        "kernel": st.sampled_from(
            ["linear", "polynomial", "gaussian", "precomputed"]
        ),
        "sigma": st.floats(0.1, 10.0),
        "degree": st.integers(1, 4),
        "coef0": st.floats(0.0, 3.0),
        "center": st.booleans(),
    },
)


@capped(30)
@given(
    change=PARAMETER_CHANGES,
    fitted_kernel=st.sampled_from(["linear", "polynomial", "gaussian"]),
)
def test_set_params_after_fit_does_not_change_transform(change, fitted_kernel):
    X = np.random.default_rng(3).normal(size=(12, 2))
    model = kpca.KernelPCA(2, kernel=fitted_kernel).fit(X)
    before = model.transform(X[:4])
    model.set_params(**change)
    np.testing.assert_array_equal(model.transform(X[:4]), before)


@capped(30)
@given(
    n_threads=st.integers(2, 4),
    data=st.data(),
)
def test_limits_entered_and_left_in_any_order_restore_blas(n_threads, data):
    before = _threads._blas_threads()
    leave_order = data.draw(st.permutations(range(n_threads)))
    entered = [threading.Event() for _ in range(n_threads)]
    release = [threading.Event() for _ in range(n_threads)]

    def body(i):
        with _threads.one_blas_thread():
            entered[i].set()
            release[i].wait()

    threads = [
        threading.Thread(target=body, args=(i,)) for i in range(n_threads)
    ]
    for thread in threads:
        thread.start()
    for event in entered:
        event.wait()
    assert _threads._blas_threads() == 1
    for i in leave_order:
        release[i].set()
        threads[i].join()
    assert _threads._blas_threads() == before
    assert _threads._limit.depth == 0


@capped(40)
@given(
    M=arrays(
        np.float64,
        st.tuples(st.integers(1, 4), st.integers(1, 4)),
        elements=st.floats(-1e3, 1e3) | st.just(np.nan),
    ),
    imaginary=st.booleans(),
    helper=st.sampled_from(["align_signs", "double_center", "test_kernel"]),
)
def test_helpers_return_finite_real_results_or_raise(M, imaginary, helper):
    if imaginary:
        M = M + 1j * M[::-1]
    try:
        if helper == "align_signs":
            out = kpca.align_signs(M)
        elif helper == "double_center":
            out = kpca.double_center(M)
        else:
            out = kpca.center_test_kernel(M, M.T @ M)
    except (TypeError, ValueError):
        return
    assert out.dtype == np.float64 and np.all(np.isfinite(out))
    assert not np.iscomplexobj(M) and np.all(np.isfinite(M))
    if helper == "double_center":
        assert np.abs(M - M.T).max() <= 1e-10 * np.abs(M).max()
        assert np.all(M >= 0) and np.all(np.diag(M) == 0)
