import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from kpca.book.plotting import (  # noqa: E402
    SMALLEST_TEXT_KEY,
    image_grid,
    scatter_labelled,
    scatter_matrix,
    use_book_style,
)


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
    # The top-left panel is a histogram, so its axis is a count.
    assert [ax.get_ylabel() for ax in axes[:, 0]] == ["count", "q", "s"]
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


def test_scatter_labelled_one_colour_and_legend_entry_per_label(rng):
    Z = rng.normal(size=(30, 3))
    labels = np.repeat(["b", "a", "c"], 10)
    ax = scatter_labelled(Z, labels, names=["A", "B", "C"], title="t")
    assert len(ax.collections) == 3
    # Sorted labels a, b, c get the names in order.
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "A",
        "B",
        "C",
    ]
    np.testing.assert_array_equal(
        ax.collections[0].get_offsets(), Z[labels == "a"][:, :2]
    )
    assert ax.get_title() == "t" and ax.get_xlabel() == "component 1"
    plt.close(ax.figure)


def test_scatter_labelled_single_column_and_bad_input():
    ax = scatter_labelled(np.arange(4.0)[:, None])
    np.testing.assert_array_equal(ax.collections[0].get_offsets()[:, 1], 0.0)
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="Z must be a 2-D array"):
        scatter_labelled(np.arange(4.0))


def test_image_grid_layout_and_symmetric_scale(rng):
    images = rng.normal(size=(5, 6))
    fig = image_grid(
        images, (2, 3), n_cols=3, titles=list("abcde"), symmetric=True
    )
    shown = [ax for ax in fig.axes if ax.images]
    assert len(fig.axes) == 6 and len(shown) == 5
    first = shown[0].images[0]
    v = np.max(np.abs(images[0]))
    assert first.get_clim() == (-v, v)
    assert first.get_array().shape == (2, 3)
    assert [ax.get_title() for ax in shown] == list("abcde")
    plt.close(fig)


def test_book_style_is_shipped_with_the_package():
    with matplotlib.rc_context():
        use_book_style()
        assert matplotlib.rcParams["savefig.dpi"] == 200
        assert (
            matplotlib.rcParams["axes.prop_cycle"].by_key()["color"][0]
            == "#0072B2"
        )


@pytest.mark.parametrize("dpi", [100, 200])
def test_saved_png_records_its_smallest_text(dpi, tmp_path):
    import io

    from PIL import Image

    use_book_style()
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1], [0, 1])
    ax.set_title("a title", fontsize=16)
    ax.annotate("small note", (0.5, 0.5), fontsize=7)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    plt.close(fig)
    stored = float(Image.open(buffer).text[SMALLEST_TEXT_KEY])
    # The 7 pt annotation is the smallest text (the ticks are 11 pt).
    assert stored == pytest.approx(7 * dpi / 72, abs=0.01)
