"""The chunked PCA of the feature maps: one pass, features kept or recomputed."""

from __future__ import annotations

import pickle
import tracemalloc

import numpy as np
import pytest

from kpca import (
    NystroemKernelPCA,
    RandomFourierKernelPCA,
    _feature_pca,
    random_features,
)
from kpca.nystroem import NystroemMap
from kpca.random_features import RandomFourierMap
from kpca.streaming import StreamingMoments


@pytest.fixture(scope="module")
def X():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(900, 3))
    X[:, 1] += X[:, 0]
    return X


MODELS = {
    "random features": lambda: RandomFourierKernelPCA(
        3, sigma=1.5, n_random_features=80, chunk_size=100
    ),
    "nystroem": lambda: NystroemKernelPCA(
        3, sigma=1.5, n_landmarks=60, chunk_size=100
    ),
}


@pytest.mark.parametrize("name", MODELS)
@pytest.mark.parametrize("budget", [0, 8 * 80 * 250, 2**30])
def test_fit_transform_equals_fit_then_transform(X, name, budget, monkeypatch):
    # Kept features (2**30), none (0), or dropped half way through the
    # pass (room for 250 of 900 rows): the same scores, to the bit.
    monkeypatch.setattr(_feature_pca, "KEEP_FEATURES_UP_TO", budget)
    model = MODELS[name]()
    Z = model.fit_transform(X)
    np.testing.assert_array_equal(Z, model.transform(X))
    np.testing.assert_array_equal(Z, MODELS[name]().fit(X).transform(X))


def test_features_that_cannot_all_be_kept_are_not_held_on_the_way(
    monkeypatch,
):
    # An array says its rows before the pass: when all its features would
    # not fit in the budget, none are held, not even until the budget is
    # crossed (the peak stays a few chunks' worth).
    X = np.random.default_rng(1).normal(size=(6000, 3))
    all_features = 6000 * 400 * 8
    monkeypatch.setattr(_feature_pca, "KEEP_FEATURES_UP_TO", all_features - 1)

    def model():
        return RandomFourierKernelPCA(
            3, n_random_features=400, chunk_size=500, random_state=0
        )

    tracemalloc.start()
    try:
        Z = model().fit_transform(X)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 0.5 * all_features
    np.testing.assert_array_equal(Z, model().fit(X).transform(X))


def test_fit_keeps_the_features_only_when_asked(X):
    feature_map = RandomFourierMap.draw(3, 60, 1.5, seed=0)
    data = _feature_pca.FitData(X, 100)
    kept = _feature_pca.fit_feature_pca(feature_map, data, 3, keep_bytes=1)
    assert kept.kept is None  # one chunk is over the budget
    everything = _feature_pca.fit_feature_pca(
        feature_map, _feature_pca.FitData(X, 100), 3, keep_bytes=2**30
    )
    assert everything.kept is not None
    assert [G.shape for G in everything.kept] == [(100, 60)] * 9
    # Nystroem kernel rows are recomputed, never kept.
    nystroem_map = NystroemMap.from_landmarks(
        dict(kernel="gaussian", sigma=1.5, degree=2, coef0=1.0), X[:60]
    )
    rows = _feature_pca.fit_feature_pca(
        nystroem_map, _feature_pca.FitData(X, 100), 3, keep_bytes=2**30
    )
    assert rows.kept is None


def test_random_features_do_not_depend_on_the_thread_split(monkeypatch):
    X = np.random.default_rng(0).normal(size=(1000, 4))
    feature_map = RandomFourierMap.draw(4, 300, 2.0, seed=3)
    monkeypatch.setattr(random_features, "_THREADS_FROM", 2**40)
    one = feature_map.features(X)
    monkeypatch.setattr(random_features, "_THREADS_FROM", 1)
    monkeypatch.setattr(random_features, "available_cores", lambda: 3)
    split = feature_map.features(X)
    np.testing.assert_array_equal(one, split)
    reference = np.sqrt(2.0 / 300) * np.cos(
        X @ feature_map.frequencies.T + feature_map.phases
    )
    np.testing.assert_allclose(one, reference, rtol=0, atol=1e-14)


@pytest.mark.parametrize("threads_from", [1, 2**40])
def test_random_features_reject_phases_lost_in_round_off(
    threads_from, monkeypatch
):
    monkeypatch.setattr(random_features, "_THREADS_FROM", threads_from)
    feature_map = RandomFourierMap.draw(2, 50, 1.0, seed=0)
    far = np.full((200, 2), 1e13)
    with pytest.raises(ValueError, match="too far from the origin"):
        feature_map.features(far)


@pytest.mark.parametrize("name", MODELS)
def test_fitted_model_pickles_with_its_feature_map(X, name):
    model = MODELS[name]().fit(X)
    restored = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(restored.transform(X), model.transform(X))


def test_nystroem_transform_uses_the_fitted_kernel_after_set_params(X):
    model = MODELS["nystroem"]().fit(X)
    before = model.transform(X[:50])
    model.set_params(sigma=0.1, kernel="linear")
    np.testing.assert_array_equal(model.transform(X[:50]), before)


@pytest.mark.parametrize("name", MODELS)
@pytest.mark.parametrize("lanes", [2, 3])
def test_lanes_give_the_serial_fit(X, name, lanes, monkeypatch):
    # Each chunk split between `lanes` lanes of moments, merged in order:
    # the model of the serial pass up to round-off, the same scores, and
    # the kept features in the order of the rows.
    monkeypatch.setattr(_feature_pca, "_SLICE_ROWS", 10)
    monkeypatch.setattr(_feature_pca, "available_cores", lambda: 1)
    serial = MODELS[name]()
    Z_serial = serial.fit_transform(X)
    monkeypatch.setattr(_feature_pca, "available_cores", lambda: lanes)
    split = MODELS[name]()
    Z_split = split.fit_transform(X)
    np.testing.assert_allclose(
        split.eigenvalues_, serial.eigenvalues_, rtol=1e-12
    )
    np.testing.assert_allclose(Z_split, Z_serial, atol=1e-12)
    np.testing.assert_allclose(
        split.transform(X[:50]), Z_serial[:50], atol=1e-12
    )


def test_a_small_chunk_stays_whole():
    chunk = np.zeros((300, 2))
    assert len(_feature_pca._slices(chunk, 2)) == 1  # 150 < 256 rows each
    parts = _feature_pca._slices(np.zeros((1000, 2)), 3)
    assert [len(p) for p in parts] == [333, 333, 334]


@pytest.mark.parametrize("offset", [0.0, 1e8])
def test_a_lane_keeps_the_streaming_moments(offset):
    # A lane folds each slice's scatter and the pairwise formula's rank-one
    # term into one product, in buffers it reuses (slices of several sizes,
    # the largest not first): the moments of StreamingMoments.update, to
    # round-off, even far from the origin.
    rng = np.random.default_rng(3)
    G = rng.standard_normal((1000, 7)) * [1, 2, 3, 4, 5, 6, 7] + offset
    cuts = [0, 1, 40, 400, 401, 700, 1000]
    lane = _feature_pca._LaneMoments()
    streaming = StreamingMoments()
    for start, stop in zip(cuts[:-1], cuts[1:], strict=True):
        lane.update(G[start:stop])
        streaming.update(G[start:stop])
    moments = lane.moments()
    centred = G - G.mean(axis=0)
    assert moments.n_samples == streaming.n_samples == 1000
    np.testing.assert_allclose(moments.mean, streaming.mean, rtol=1e-15)
    np.testing.assert_allclose(
        moments.scatter, centred.T @ centred, rtol=1e-10
    )
    np.testing.assert_allclose(moments.scatter, streaming.scatter, rtol=1e-12)
    np.testing.assert_array_equal(moments.scatter, moments.scatter.T)
    # The lane is done: its buffers are gone.
    assert lane._rows is None and lane._square is None
