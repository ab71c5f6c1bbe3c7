"""Approximate kernel PCA: Nyström and random Fourier features, streamed in chunks."""

import pickle

import numpy as np
import pytest
import scipy.linalg
import scipy.sparse
from sklearn.base import clone
from sklearn.decomposition import PCA as SklearnPCA
from sklearn.kernel_approximation import Nystroem, RBFSampler
from utils import assert_equal_up_to_sign

import kpca
from kpca._base import NotFittedError
from kpca.landmarks import kmeans_landmarks, uniform_landmarks
from kpca.random_features import random_fourier_features
from kpca.streaming import StreamingMoments, iter_chunks


@pytest.fixture
def X(rng):
    return rng.normal(size=(240, 3))


def exact(X, k, **kernel):
    return kpca.KernelPCA(k, eigen_solver="dense", **kernel).fit(X)


def max_angle(A, B):
    """Largest principal angle (radians) between the column spans of A and B."""
    return float(np.max(scipy.linalg.subspace_angles(A, B)))


# -- exactness with every point a landmark ---------------------------------------------
@pytest.mark.parametrize(
    "kernel",
    [
        dict(kernel="gaussian", sigma=1.5),
        dict(kernel="polynomial", degree=3, coef0=1.0),
        dict(kernel="linear"),
    ],
    ids=["gaussian", "polynomial", "linear"],
)
def test_all_points_as_landmarks_is_exact_kernel_pca(X, kernel):
    n = X.shape[0]
    k = 3
    ref = exact(X, k, **kernel)
    ny = kpca.NystroemKernelPCA(k, n_landmarks=n, **kernel)
    Z = ny.fit_transform(X)
    assert sorted(map(tuple, ny.landmarks_)) == sorted(map(tuple, X))
    np.testing.assert_allclose(ny.eigenvalues_, ref.eigenvalues_, rtol=1e-9)
    assert_equal_up_to_sign(Z, ref.transform(X), rtol=1e-7, atol=1e-8)
    X_new = X[:25] * 0.9 + 0.1
    signs = np.sign(np.sum(Z * ref.transform(X), axis=0))
    np.testing.assert_allclose(
        ny.transform(X_new) * signs, ref.transform(X_new), atol=1e-8
    )
    np.testing.assert_allclose(ny.explained_variance_, ref.explained_variance_)


def test_landmarks_given_as_the_data_are_exact(X):
    ref = exact(X, 4, sigma=1.0)
    ny = kpca.NystroemKernelPCA(4, sigma=1.0, landmarks=X).fit(X)
    np.testing.assert_allclose(ny.eigenvalues_, ref.eigenvalues_, rtol=1e-9)
    assert ny.landmarks_ is not X  # a copy, not the caller's array


def test_centring_uses_the_data_mean_of_the_nystroem_features(X):
    """H K~ H, the kernel matrix of the features centred with their mean over the data."""
    ny = kpca.NystroemKernelPCA(5, sigma=1.0, n_landmarks=30).fit(X)
    F = kpca.gaussian_kernel(X, ny.landmarks_) @ ny.normalization_
    K_approx = F @ F.T
    mu = np.linalg.eigvalsh(kpca.center_kernel(K_approx))[::-1][:5]
    np.testing.assert_allclose(ny.eigenvalues_, mu, rtol=1e-9)
    # Centring the landmarks' kernel matrix instead gives something else.
    Kmm_c = kpca.center_kernel(kpca.gaussian_kernel(ny.landmarks_))
    lam, U = np.linalg.eigh(Kmm_c)
    keep = lam > 1e-10 * lam.max()
    F_wrong = kpca.gaussian_kernel(X, ny.landmarks_) @ (
        U[:, keep] / np.sqrt(lam[keep])
    )
    mu_wrong = np.linalg.eigvalsh(F_wrong.T @ F_wrong)[::-1][:5]
    assert np.max(np.abs(mu_wrong - mu) / mu) > 0.05


def test_scores_of_training_points_are_the_centred_features_projected(X):
    ny = kpca.NystroemKernelPCA(4, sigma=1.2, n_landmarks=50).fit(X)
    F = kpca.gaussian_kernel(X, ny.landmarks_, sigma=1.2) @ ny.normalization_
    Fc = F - F.mean(axis=0)
    Z = ny.transform(X)
    np.testing.assert_allclose(Z, Fc @ ny.components_.T, atol=1e-10)
    np.testing.assert_allclose(Z.mean(axis=0), 0, atol=1e-10)
    np.testing.assert_allclose(
        np.sum(Z**2, axis=0), ny.eigenvalues_, rtol=1e-9
    )


def test_a_few_components_of_a_large_scatter_match_the_full_decomposition(rng):
    X = rng.normal(size=(900, 3))
    few = kpca.NystroemKernelPCA(4, sigma=1.0, n_landmarks=700).fit(X)
    every = kpca.NystroemKernelPCA(None, sigma=1.0, n_landmarks=700).fit(X)
    assert every.n_components_ > 40  # the full eigh, not the iterative path
    np.testing.assert_allclose(
        few.eigenvalues_, every.eigenvalues_[:4], rtol=1e-9
    )
    np.testing.assert_allclose(
        few.transform(X), every.transform(X)[:, :4], atol=1e-7
    )


# -- convergence --------------------------------------------------------------------
def test_nystroem_eigenvalues_grow_with_nested_landmarks_and_stay_below_exact(
    X,
):
    ref = exact(X, 5, sigma=1.0)
    previous = np.zeros(5)
    errors = []
    for m in (10, 20, 40, 80, 160, 240):
        mu = (
            kpca.NystroemKernelPCA(5, sigma=1.0, n_landmarks=m, random_state=3)
            .fit(X)
            .eigenvalues_
        )
        # K~ grows in the Loewner order as landmarks are added, and never exceeds K.
        assert np.all(mu >= previous - 1e-10 * ref.eigenvalues_[0])
        assert np.all(mu <= ref.eigenvalues_ * (1 + 1e-10))
        previous = mu
        errors.append(np.max((ref.eigenvalues_ - mu) / ref.eigenvalues_))
    assert errors[-1] < 1e-8 < errors[0]
    assert errors[3] < errors[0] / 10


def test_kmeans_landmarks_beat_uniform_ones_on_average(rng):
    X = np.vstack(
        [rng.normal(size=(300, 2)), rng.normal(5.0, 0.3, size=(30, 2))]
    )
    ref = exact(X, 4, sigma=1.0)

    def error(landmarks, seed):
        mu = (
            kpca.NystroemKernelPCA(
                4,
                sigma=1.0,
                n_landmarks=15,
                landmarks=landmarks,
                random_state=seed,
            )
            .fit(X)
            .eigenvalues_
        )
        return np.max((ref.eigenvalues_ - mu) / ref.eigenvalues_)

    uniform = np.mean([error("uniform", s) for s in range(10)])
    kmeans = np.mean([error("kmeans", s) for s in range(10)])
    assert kmeans < uniform / 2


def test_random_feature_kernel_error_falls_like_one_over_sqrt_d(rng):
    X = rng.normal(size=(60, 2))
    K = kpca.gaussian_kernel(X, sigma=1.5)

    def rms_error(D, seed):
        draw = np.random.default_rng(seed)
        frequencies = draw.standard_normal((D, 2)) / 1.5
        phases = draw.uniform(0, 2 * np.pi, D)
        F = random_fourier_features(X, frequencies, phases)
        return np.sqrt(np.mean((F @ F.T - K) ** 2))

    small = np.mean([rms_error(100, s) for s in range(10)])
    large = np.mean([rms_error(6400, s) for s in range(10)])
    # 64 times more features: the error shrinks 8 times.
    assert 6.5 < small / large < 9.5


def test_random_feature_kernel_pca_converges(rng):
    X = rng.normal(size=(150, 2))
    Z_ref = exact(X, 3, sigma=1.0).transform(X)

    def angle(D):
        return np.mean(
            [
                max_angle(
                    kpca.RandomFourierKernelPCA(
                        3, sigma=1.0, n_random_features=D, random_state=s
                    ).fit_transform(X),
                    Z_ref,
                )
                for s in range(4)
            ]
        )

    assert angle(800) < angle(50) / 2


# -- chunks -------------------------------------------------------------------------
class LazyRows:
    """An array-like read by row slices only, like zarr or h5py; records the reads."""

    def __init__(self, data):
        self.data = data
        self.shape = data.shape
        self.largest_read = 0

    def __getitem__(self, rows):
        block = self.data[rows]
        self.largest_read = max(self.largest_read, block.shape[0])
        return block


@pytest.mark.parametrize(
    "make",
    [
        lambda: kpca.NystroemKernelPCA(4, sigma=1.0, n_landmarks=30),
        lambda: kpca.NystroemKernelPCA(
            4, sigma=1.0, n_landmarks=30, landmarks="kmeans"
        ),
        lambda: kpca.RandomFourierKernelPCA(
            4, sigma=1.0, n_random_features=200
        ),
    ],
    ids=["nystroem-uniform", "nystroem-kmeans", "rff"],
)
def test_chunked_fits_equal_the_whole_array_fit(X, make):
    whole = make().fit(X)
    Z = whole.transform(X)
    splits = [X[:50], X[50:51], X[51:170], X[170:]]
    lazy = LazyRows(X)
    for data, chunk_size in [
        (X, 7),
        (splits, None),
        (tuple(splits), 13),
        (lazy, 16),
        (X.tolist(), None),
    ]:
        part = make().set_params(chunk_size=chunk_size)
        Z_part = part.fit_transform(data)
        np.testing.assert_allclose(
            part.eigenvalues_, whole.eigenvalues_, rtol=1e-10
        )
        np.testing.assert_allclose(Z_part, Z, atol=1e-10)
    assert lazy.largest_read == 16


def test_generators_of_chunks_are_read_once(X):
    chunks = lambda: (X[i : i + 40] for i in range(0, len(X), 40))  # noqa: E731
    rff = kpca.RandomFourierKernelPCA(3, sigma=1.0).fit(chunks())
    ref = kpca.RandomFourierKernelPCA(3, sigma=1.0).fit(X)
    np.testing.assert_allclose(rff.eigenvalues_, ref.eigenvalues_, rtol=1e-10)
    np.testing.assert_allclose(
        rff.transform(chunks()), ref.transform(X), atol=1e-10
    )
    # Given landmarks need no pass of their own: a generator is enough.
    Z = uniform_landmarks(X, 20, random_state=1)
    ny = kpca.NystroemKernelPCA(3, sigma=1.0, landmarks=Z).fit(chunks())
    ny_ref = kpca.NystroemKernelPCA(3, sigma=1.0, landmarks=Z).fit(X)
    np.testing.assert_allclose(
        ny.eigenvalues_, ny_ref.eigenvalues_, rtol=1e-10
    )


def test_one_shot_iterators_that_must_be_read_twice_are_refused(X):
    chunks = iter([X[:100], X[100:]])
    with pytest.raises(TypeError, match="one-shot iterator"):
        kpca.NystroemKernelPCA(3, n_landmarks=10).fit(chunks)
    with pytest.raises(TypeError, match="fit_transform reads X twice"):
        kpca.RandomFourierKernelPCA(3).fit_transform(chunks)
    assert next(chunks).shape == (100, 3)  # nothing was consumed


def test_memmap_is_read_in_slices(X, tmp_path):
    path = tmp_path / "X.npy"
    np.save(path, X)
    mm = np.load(path, mmap_mode="r")
    a = kpca.NystroemKernelPCA(3, n_landmarks=20, chunk_size=32).fit(mm)
    b = kpca.NystroemKernelPCA(3, n_landmarks=20).fit(X)
    np.testing.assert_allclose(a.eigenvalues_, b.eigenvalues_, rtol=1e-10)


def test_uniform_landmarks_do_not_depend_on_chunking_and_are_nested(X):
    Z = uniform_landmarks(X, 30, random_state=5)
    for parts in ([X], [X[:1], X[1:]], np.array_split(X, 9)):
        np.testing.assert_array_equal(
            uniform_landmarks(list(parts), 30, random_state=5), Z
        )
    bigger = uniform_landmarks(X, 60, random_state=5)
    assert {tuple(z) for z in Z} <= {tuple(z) for z in bigger}
    assert len({tuple(z) for z in Z}) == 30  # without replacement
    assert not np.array_equal(uniform_landmarks(X, 30, random_state=6), Z)
    np.testing.assert_array_equal(
        np.sort(uniform_landmarks(X, 500, random_state=5), axis=0),
        np.sort(X, axis=0),
    )


def test_uniform_landmarks_are_uniform(rng):
    X = np.arange(50.0)[:, None]
    counts = np.zeros(50)
    for seed in range(2000):
        counts[
            uniform_landmarks(X, 5, random_state=seed)[:, 0].astype(int)
        ] += 1
    # Each row is kept with probability 5/50: 200 of 2000 times, sd about 13.4.
    assert np.all(np.abs(counts - 200) < 6 * 13.4)


def test_kmeans_landmarks_are_centres_of_their_clusters(rng):
    X = np.vstack([rng.normal(c, 0.05, size=(40, 2)) for c in (0.0, 3.0, 6.0)])
    Z = kmeans_landmarks(X, 3, random_state=0)
    np.testing.assert_allclose(np.sort(Z[:, 0]), [0.0, 3.0, 6.0], atol=0.05)


def test_streaming_moments_merge_and_large_offsets(rng):
    F = rng.normal(size=(1000, 4)) + 1e8
    parts = np.array_split(F, 7)
    moments = [StreamingMoments().update(p) for p in parts]
    merged = moments[0]
    for m in moments[1:]:
        merged = merged.merge(m)
    one_pass = StreamingMoments()
    for p in parts:
        one_pass.update(p)
    exact_scatter = (F - F.mean(0)).T @ (F - F.mean(0))
    for acc in (merged, one_pass):
        assert acc.n_samples == 1000
        np.testing.assert_allclose(acc.mean, F.mean(0), rtol=1e-14)
        np.testing.assert_allclose(acc.scatter, exact_scatter, rtol=1e-9)
        assert np.all(np.isfinite(acc.scatter))
        np.testing.assert_array_equal(acc.scatter, acc.scatter.T)
    # The textbook sum of squares minus n mean^2 loses every digit here.
    naive = F.T @ F - 1000 * np.outer(F.mean(0), F.mean(0))
    assert np.max(np.abs(naive - exact_scatter)) > 1e3 * np.max(
        np.abs(one_pass.scatter - exact_scatter)
    )


# -- against scikit-learn ----------------------------------------------------------
def test_same_landmarks_as_sklearn_nystroem_pca_give_the_same_model(rng):
    X = rng.normal(size=(400, 4))
    sk_map = Nystroem(gamma=0.5, n_components=60, random_state=0).fit(X)
    sk_pca = SklearnPCA(5, svd_solver="full").fit(sk_map.transform(X))
    ours = kpca.NystroemKernelPCA(
        5, sigma=1.0, landmarks=sk_map.components_
    ).fit(X)
    np.testing.assert_allclose(
        ours.eigenvalues_, sk_pca.explained_variance_ * (len(X) - 1), rtol=1e-8
    )
    assert_equal_up_to_sign(
        ours.transform(X), sk_pca.transform(sk_map.transform(X)), atol=1e-8
    )


def test_fourier_features_match_sklearn_rbf_sampler(rng):
    X = rng.normal(size=(50, 3))
    sampler = RBFSampler(gamma=0.5, n_components=80, random_state=0).fit(X)
    ours = random_fourier_features(
        X, sampler.random_weights_.T, sampler.random_offset_
    )
    np.testing.assert_allclose(ours, sampler.transform(X), atol=1e-12)
    # Our frequencies have the law sklearn's gamma = 1 / (2 sigma^2) implies:
    # N(0, 1/sigma^2) = N(0, 2 gamma), standard deviation 1 here.
    wide = rng.normal(size=(50, 40))
    rff = kpca.RandomFourierKernelPCA(2, sigma=1.0, n_random_features=500)
    draws = rff.fit(wide).frequencies_  # 20000 draws
    assert abs(draws.std() - 1.0) < 0.03 and abs(draws.mean()) < 0.03
    assert np.all((rff.phases_ >= 0) & (rff.phases_ < 2 * np.pi))


def test_at_equal_m_as_accurate_as_sklearn_nystroem_pca(rng):
    X = rng.normal(size=(600, 5))
    ref = exact(X, 5, sigma=2.0)
    Z_ref = ref.transform(X)
    ours_uniform, ours_kmeans, theirs = [], [], []
    for seed in range(6):
        for landmarks, store in (
            ("uniform", ours_uniform),
            ("kmeans", ours_kmeans),
        ):
            est = kpca.NystroemKernelPCA(
                5,
                sigma=2.0,
                n_landmarks=40,
                landmarks=landmarks,
                random_state=seed,
            )
            store.append(max_angle(est.fit_transform(X), Z_ref))
        F = Nystroem(
            gamma=1 / 8, n_components=40, random_state=seed
        ).fit_transform(X)
        theirs.append(max_angle(SklearnPCA(5).fit_transform(F), Z_ref))
    # Uniform landmarks are the same method as scikit-learn's (other draws);
    # k-means centres are better.
    assert np.median(ours_uniform) < 2 * np.median(theirs)
    assert np.median(ours_kmeans) < np.median(theirs)


# -- bad input ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "params, exc, match",
    [
        (dict(n_components=0), ValueError, "n_components"),
        (dict(n_components=2.0), TypeError, "n_components"),
        (dict(n_components=500), ValueError, "n_components"),
        (dict(n_landmarks=0), ValueError, "n_landmarks"),
        (dict(n_landmarks=10.0), TypeError, "n_landmarks"),
        (dict(landmarks="leverage"), ValueError, "landmarks"),
        (
            dict(landmarks=np.ones((5, 2))),
            ValueError,
            "landmarks has 2 features",
        ),
        (
            dict(landmarks=np.array([np.nan, 1.0, 2.0])[None]),
            ValueError,
            "landmarks",
        ),
        (dict(kernel="precomputed"), ValueError, "precomputed"),
        (dict(kernel="rbf"), ValueError, "kernel"),
        (dict(kernel=3), TypeError, "kernel"),
        (dict(sigma=-1.0), ValueError, "sigma"),
        (dict(sigma="wide"), TypeError, "sigma"),
        (dict(degree=1.5, kernel="polynomial"), TypeError, "degree"),
        (dict(chunk_size=0), ValueError, "chunk_size"),
        (dict(chunk_size=2.5), TypeError, "chunk_size"),
        (dict(random_state=-1), ValueError, "random_state"),
        (dict(random_state="seed"), TypeError, "random_state"),
    ],
)
def test_bad_nystroem_parameters(X, params, exc, match):
    with pytest.raises(exc, match=match):
        kpca.NystroemKernelPCA(**params).fit(X)


@pytest.mark.parametrize(
    "params, exc, match",
    [
        (dict(n_random_features=0), ValueError, "n_random_features"),
        (dict(n_random_features=None), TypeError, "n_random_features"),
        (dict(sigma=0.0), ValueError, "sigma"),
        (dict(n_components=-3), ValueError, "n_components"),
    ],
)
def test_bad_random_feature_parameters(X, params, exc, match):
    with pytest.raises(exc, match=match):
        kpca.RandomFourierKernelPCA(**params).fit(X)


@pytest.mark.parametrize(
    "data, exc, match",
    [
        (np.array([[1.0, np.nan], [0.0, 1.0]]), ValueError, "NaN"),
        (np.arange(5.0), ValueError, "Reshape your data"),
        (np.ones((4, 0)), ValueError, "0 feature"),
        (np.ones((0, 3)), ValueError, "0 sample"),
        ("data", TypeError, "X"),
        (None, TypeError, "X"),
        ([np.ones((3, 2)), np.ones((3, 3))], ValueError, "chunk 1"),
        ([np.ones((3, 2)), np.ones(2)], ValueError, "chunk 1"),
        ([], ValueError, "no rows"),
        (iter([]), ValueError, "no rows"),
        (np.ones((1, 3)), ValueError, "1 sample"),
    ],
)
def test_bad_data(data, exc, match):
    with pytest.raises(exc, match=match):
        kpca.RandomFourierKernelPCA(2).fit(data)


def test_transform_checks(X):
    model = kpca.NystroemKernelPCA(2, n_landmarks=10)
    with pytest.raises(NotFittedError, match="not fitted"):
        model.transform(X)
    model.fit(X)
    with pytest.raises(ValueError, match="3 features"):
        model.transform(X[:, :2])
    with pytest.raises(ValueError, match="Reshape"):
        model.transform(X[0])


def test_failed_fit_keeps_the_previous_model(X):
    model = kpca.NystroemKernelPCA(2, n_landmarks=10).fit(X)
    before = {k: v for k, v in vars(model).items() if k.endswith("_")}
    bad = X.copy()
    bad[-1, 0] = np.inf  # found only in the last chunk
    with pytest.raises(ValueError, match="NaN or infinity"):
        model.set_params(chunk_size=16).fit(bad)
    after = {k: v for k, v in vars(model).items() if k.endswith("_")}
    assert before.keys() == after.keys()
    for key in before:
        assert before[key] is after[key]


def test_more_components_than_the_rank_warns(rng):
    X = rng.normal(size=(30, 2))
    with pytest.warns(RuntimeWarning, match="numerical rank"):
        model = kpca.NystroemKernelPCA(8, kernel="linear", n_landmarks=10).fit(
            X
        )
    assert model.n_components_ == 2


def test_identical_points_have_no_component():
    with pytest.raises(ValueError, match="no positive eigenvalue"):
        kpca.RandomFourierKernelPCA(2).fit(np.ones((10, 2)))


# -- the estimator protocol -----------------------------------------------------------
def test_protocol_clone_params_repr_pickle(X):
    est = kpca.NystroemKernelPCA(3, sigma=0.5, n_landmarks=20, random_state=4)
    assert repr(est) == (
        "NystroemKernelPCA(n_components=3, n_landmarks=20, random_state=4, sigma=0.5)"
    )
    assert repr(kpca.RandomFourierKernelPCA()) == "RandomFourierKernelPCA()"
    twin = clone(est)
    assert twin is not est and twin.get_params() == est.get_params()
    assert est.set_params(sigma=2.0) is est and est.sigma == 2.0
    with pytest.raises(ValueError, match="invalid parameter"):
        est.set_params(gamma=1.0)
    est.fit(X)
    restored = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(restored.transform(X), est.transform(X))
    assert not hasattr(twin, "eigenvalues_")
    with pytest.raises(TypeError):
        kpca.NystroemKernelPCA(
            3, "gaussian"
        )  # keyword-only after n_components


def test_fit_is_deterministic_and_seeded(X):
    a = kpca.RandomFourierKernelPCA(2, random_state=1).fit(X)
    b = kpca.RandomFourierKernelPCA(2, random_state=1).fit(X)
    c = kpca.RandomFourierKernelPCA(2, random_state=2).fit(X)
    np.testing.assert_array_equal(a.transform(X), b.transform(X))
    assert not np.allclose(a.eigenvalues_, c.eigenvalues_)
    d = kpca.RandomFourierKernelPCA(2).fit(X)  # None means seed 0
    e = kpca.RandomFourierKernelPCA(2, random_state=0).fit(X)
    np.testing.assert_array_equal(d.eigenvalues_, e.eigenvalues_)


def test_iter_chunks_splits_large_chunks():
    X = np.arange(30.0).reshape(15, 2)
    shapes = [c.shape for c in iter_chunks([X[:11], X[11:]], chunk_size=4)]
    assert shapes == [(4, 2), (4, 2), (3, 2), (4, 2)]


@pytest.mark.parametrize("method", ["fit", "partial_fit", "fit_transform"])
@pytest.mark.parametrize(
    "make",
    [
        lambda: kpca.NystroemKernelPCA(8, kernel="linear", n_landmarks=10),
        lambda: kpca.RandomFourierKernelPCA(8, n_random_features=3),
    ],
    ids=["nystroem", "random-features"],
)
def test_the_rank_warning_points_at_the_callers_line(rng, make, method):
    X = rng.normal(size=(30, 2))
    with pytest.warns(RuntimeWarning, match="rank") as caught:
        getattr(make(), method)(X)
    assert {w.filename for w in caught} == {__file__}
