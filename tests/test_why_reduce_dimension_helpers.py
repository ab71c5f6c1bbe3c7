import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from kpca.plotting import scatter_matrix  # noqa: E402


def test_scatter_matrix_layout_and_correlations(rng):
    X = rng.normal(size=(40, 3))
    X[:, 2] = X[:, 0] + 0.1 * X[:, 2]
    fig = scatter_matrix(
        X,
        labels=np.repeat([0, 1], 20),
        names=["a", "b"],
        feature_names=["p", "q", "s"],
        s=5,
    )
    axes = np.array(fig.axes[:9]).reshape(3, 3)
    assert [ax.get_xlabel() for ax in axes[-1]] == ["p", "q", "s"]
    assert [ax.get_ylabel() for ax in axes[:, 0]] == ["p", "q", "s"]
    r = np.corrcoef(X, rowvar=False)[2, 0]
    assert axes[2, 0].texts[0].get_text() == f"r = {r:.2f}"
    assert not axes[1, 1].texts  # no correlation on the diagonal
    assert len(axes[0, 1].collections) == 2  # one scatter per class
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["a", "b"]
    plt.close(fig)


def test_scatter_matrix_without_corr():
    fig = scatter_matrix(np.arange(12.0).reshape(6, 2) ** 1.5, show_corr=False)
    assert all(not ax.texts for ax in fig.axes)
    plt.close(fig)


@pytest.mark.parametrize(
    "kwargs, X, match",
    [
        ({}, np.zeros((5, 1)), "two columns"),
        ({"feature_names": ["a"]}, np.zeros((5, 2)), "feature_names"),
        ({"labels": [0, 1]}, np.zeros((5, 2)), "labels"),
    ],
)
def test_scatter_matrix_bad_input(kwargs, X, match):
    with pytest.raises(ValueError, match=match):
        scatter_matrix(X, **kwargs)
