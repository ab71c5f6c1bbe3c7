"""Small matplotlib helpers that several chapters share (needs ``kpca[book]``).

They draw on a given ``Axes`` (or make one) and return it, so a chapter can
compose them; colours and fonts come from the active matplotlib style, which
:func:`use_book_style` sets to the book's.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

import numpy as np

__all__ = [
    "BOOK_STYLE",
    "SMALLEST_TEXT_KEY",
    "smallest_text_px",
    "use_book_style",
    "scatter_labelled",
    "image_grid",
    "scatter_matrix",
]

#: Path of the book's matplotlib style sheet, shipped inside the package.
BOOK_STYLE = str(Path(__file__).with_name("book.mplstyle"))

#: PNG text key under which a figure saved with the book's style records
#: the font size of its smallest visible text, in the PNG's pixels.
SMALLEST_TEXT_KEY = "kpca-book smallest text px"


def smallest_text_px(figure, dpi: float) -> float | None:
    """Font size of the smallest visible text of ``figure`` at ``dpi``, in px.

    Tick labels, titles, legends and annotations all count; empty or hidden
    texts do not.  ``None`` for a figure without text.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> _ = ax.set_title("title", fontsize=20)
    >>> _ = ax.tick_params(labelsize=9)
    >>> smallest_text_px(fig, dpi=144)
    18.0
    >>> plt.close(fig)
    """
    from matplotlib.text import Text

    figure.draw_without_rendering()  # tick labels exist only once drawn
    sizes = [
        text.get_fontsize()
        for text in figure.findobj(Text)
        if text.get_visible() and text.get_text().strip()
    ]
    return min(sizes) * dpi / 72 if sizes else None


def _record_smallest_text_in_pngs() -> None:
    """Make every PNG that matplotlib's Agg canvas writes carry its text size.

    Wraps ``FigureCanvasAgg.print_png`` once; the inline backend of Jupyter
    saves through it, so a chapter's stored figures carry the number.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    original = FigureCanvasAgg.print_png
    if getattr(original, "_records_smallest_text", False):
        return

    # functools.wraps keeps the original's module and signature, from which
    # matplotlib decides which of savefig's arguments to pass on.
    @functools.wraps(original)
    def print_png(self, filename_or_obj, *, metadata=None, pil_kwargs=None):
        # Laying out the figure to find its tick labels saves through this
        # method once more (matplotlib's renderer probe): pass that through.
        if getattr(self.figure, "_measuring_text", False):
            return original(
                self, filename_or_obj, metadata=metadata, pil_kwargs=pil_kwargs
            )
        # While saving, figure.dpi is the dpi of the file being written.
        self.figure._measuring_text = True
        try:
            size = smallest_text_px(self.figure, self.figure.dpi)
        finally:
            self.figure._measuring_text = False
        metadata = dict(metadata or {})
        if size is not None:
            metadata[SMALLEST_TEXT_KEY] = f"{size:.2f}"
        return original(
            self, filename_or_obj, metadata=metadata, pil_kwargs=pil_kwargs
        )

    print_png._records_smallest_text = True  # type: ignore[attr-defined]
    FigureCanvasAgg.print_png = print_png  # type: ignore[method-assign]


def use_book_style() -> None:
    """Apply the book's figure style, wherever the code runs.

    Sets the matplotlib style shipped with the package (Okabe--Ito colours,
    white background, constrained layout) and, inside a Jupyter kernel, asks
    for "retina" PNGs: twice the pixels at the same displayed size, so that
    figures stay sharp on high-density screens and phones.

    Every PNG saved afterwards records the height of its smallest text, in
    the PNG's pixels, under the key :data:`SMALLEST_TEXT_KEY`: the book's
    tests read it from the built pages to check that a figure's text stays
    legible when a phone shrinks the figure to its screen.

    Examples
    --------
    >>> import matplotlib
    >>> use_book_style()
    >>> matplotlib.rcParams["figure.constrained_layout.use"]
    True
    """
    import matplotlib.pyplot as plt

    plt.style.use(BOOK_STYLE)
    _record_smallest_text_in_pngs()
    try:
        from IPython import get_ipython
    except ImportError:  # plain Python: nothing more to set
        return
    shell = get_ipython()
    if shell is not None and hasattr(shell, "kernel"):
        from matplotlib_inline.backend_inline import set_matplotlib_formats

        set_matplotlib_formats("retina")


def scatter_labelled(
    Z: np.ndarray,
    labels: Sequence | None = None,
    ax=None,
    *,
    names: Sequence[str] | None = None,
    xlabel: str = "component 1",
    ylabel: str = "component 2",
    title: str | None = None,
    **scatter_kwargs,
):
    """Scatter the first two columns of ``Z``, one colour and legend entry per label.

    Parameters
    ----------
    Z : array_like, shape (n, k)
        Points, e.g. scores; a single column is drawn against 0.
    labels : sequence, optional
        Class of each point; each distinct value (sorted) gets the next
        colour of the style's cycle.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure when None.
    names : sequence of str, optional
        Legend names of the sorted distinct labels.
    xlabel, ylabel, title : str
        Axis labels and an optional title.
    **scatter_kwargs
        Passed to ``Axes.scatter`` (e.g. ``s=8``).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = scatter_labelled(np.eye(3), labels=[0, 1, 1], names=["a", "b"])
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['a', 'b']
    >>> plt.close(ax.figure)
    """
    import matplotlib.pyplot as plt

    Z = np.asarray(Z, dtype=float)
    if Z.ndim != 2 or Z.shape[1] < 1:
        raise ValueError(
            f"Z must be a 2-D array with at least one column, got shape {Z.shape}"
        )
    if ax is None:
        _, ax = plt.subplots(figsize=(4.5, 4))
    y = Z[:, 1] if Z.shape[1] > 1 else np.zeros(len(Z))
    if labels is None:
        ax.scatter(Z[:, 0], y, **scatter_kwargs)
    else:
        label_array = np.asarray(labels)
        for i, lab in enumerate(np.unique(label_array)):
            mask = label_array == lab
            name = names[i] if names is not None else str(lab)
            ax.scatter(Z[mask, 0], y[mask], label=name, **scatter_kwargs)
        ax.legend(frameon=False)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    return ax


def image_grid(
    images: np.ndarray,
    image_shape: tuple[int, int],
    n_cols: int = 8,
    *,
    titles: Sequence[str] | None = None,
    cmap: str = "gray",
    symmetric: bool = False,
    size: float = 1.2,
):
    """Show the rows of ``images`` (flattened) as a grid of pictures.

    Parameters
    ----------
    images : array_like, shape (m, h * w)
        One flattened picture per row.
    image_shape : tuple of int
        ``(h, w)``.
    n_cols : int, default 8
        Pictures per row of the grid.
    titles : sequence of str, optional
        One title per picture.
    cmap : str, default "gray"
        Colour map.
    symmetric : bool, default False
        Centre the colour scale of each picture on 0, which is how signed
        vectors such as eigenfaces should be shown.
    size : float, default 1.2
        Width of one picture in inches.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig = image_grid(np.arange(12.0).reshape(2, 6), (2, 3), n_cols=2)
    >>> len(fig.axes), fig.axes[0].images[0].get_array().shape
    (2, (2, 3))
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt

    images = np.asarray(images, dtype=float)
    n = len(images)
    n_rows = int(np.ceil(n / n_cols))
    fig, axes = plt.subplots(
        n_rows,
        n_cols,
        figsize=(size * n_cols, size * 1.15 * n_rows),
        squeeze=False,
    )
    for i, ax in enumerate(axes.flat):
        ax.axis("off")
        if i >= n:
            continue
        img = images[i].reshape(image_shape)
        if symmetric:
            v = float(np.max(np.abs(img))) or 1.0
            ax.imshow(img, cmap=cmap, vmin=-v, vmax=v)
        else:
            ax.imshow(img, cmap=cmap)
        if titles is not None:
            # as large as the legend text: legible on a phone
            ax.set_title(titles[i], fontsize=plt.rcParams["legend.fontsize"])
    return fig


def scatter_matrix(
    X: np.ndarray,
    labels: Sequence | None = None,
    *,
    feature_names: Sequence[str] | None = None,
    names: Sequence[str] | None = None,
    show_corr: bool = True,
    bins: int = 15,
    size: float = 1.9,
    **scatter_kwargs,
):
    """Scatter-plot matrix of the columns of ``X``; return the figure.

    Panel ``(i, j)`` plots feature ``j`` (horizontal) against feature ``i``;
    the diagonal shows a histogram of each feature.  With ``labels`` every
    class gets its own colour (and a legend entry named from ``names``).
    With ``show_corr`` each off-diagonal panel is annotated with the Pearson
    correlation :math:`r_{ij}` of the two features over all rows.

    Parameters
    ----------
    X : ndarray, shape (n_samples, n_features)
        Data, samples as rows.
    labels : sequence, optional
        Class of each sample, one colour per distinct value.
    feature_names : sequence of str, optional
        Axis labels, one per column (default ``x1, x2, ...``).
    names : sequence of str, optional
        Legend names of the sorted distinct labels.
    show_corr : bool, default True
        Write ``r = ...`` in each off-diagonal panel.
    bins : int, default 15
        Number of histogram bins on the diagonal.
    size : float, default 1.9
        Side of one panel in inches.
    **scatter_kwargs
        Passed to ``Axes.scatter`` (e.g. ``s=8``, ``alpha=0.7``).

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> X = np.random.default_rng(0).normal(size=(30, 3))
    >>> fig = scatter_matrix(X, feature_names=["a", "b", "c"])
    >>> len(fig.axes)
    9
    >>> fig.axes[3].get_ylabel()
    'b'
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt

    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] < 2:
        raise ValueError(
            f"X must be a 2-D array with at least two columns, got shape {X.shape}"
        )
    d = X.shape[1]
    if feature_names is None:
        feature_names = [f"x{j + 1}" for j in range(d)]
    if len(feature_names) != d:
        raise ValueError(
            f"feature_names has {len(feature_names)} entries for {d} columns"
        )
    groups: list[tuple[str | None, np.ndarray]]
    if labels is None:
        groups = [(None, np.ones(len(X), dtype=bool))]
    else:
        label_array = np.asarray(labels)
        if len(label_array) != len(X):
            raise ValueError(
                f"labels has {len(label_array)} entries for {len(X)} samples"
            )
        uniq = np.unique(label_array)
        groups = [
            (names[i] if names is not None else str(lab), label_array == lab)
            for i, lab in enumerate(uniq)
        ]
    R = np.corrcoef(X, rowvar=False)
    fig, axes = plt.subplots(d, d, figsize=(size * d, size * d), squeeze=False)
    edges = [
        np.histogram_bin_edges(X[:, j], bins=bins) for j in range(d)
    ]  # same bins for every class
    for i in range(d):
        for j in range(d):
            ax = axes[i, j]
            for k, (name, mask) in enumerate(groups):
                colour = f"C{k}"
                if i == j:
                    ax.hist(X[mask, j], bins=edges[j], color=colour, alpha=0.6)
                else:
                    ax.scatter(
                        X[mask, j],
                        X[mask, i],
                        color=colour,
                        label=name,
                        **scatter_kwargs,
                    )
            if i != j and show_corr:
                ax.text(
                    0.03,
                    0.97,
                    f"r = {R[i, j]:.2f}",
                    transform=ax.transAxes,
                    va="top",
                    ha="left",
                    # as large as the legend's text: legible on a phone
                    fontsize=plt.rcParams["legend.fontsize"],
                    bbox=dict(
                        facecolor="white", alpha=0.8, edgecolor="none", pad=1
                    ),
                )
            if i == d - 1:
                ax.set_xlabel(feature_names[j])
            else:
                ax.tick_params(labelbottom=False)
            if j == 0:
                # The top-left panel is a histogram: its axis counts points.
                ax.set_ylabel("count" if i == 0 else feature_names[i])
            elif i != j:
                ax.tick_params(labelleft=False)
    if labels is not None:
        handles, legend_labels = axes[0, 1].get_legend_handles_labels()
        fig.legend(
            handles,
            legend_labels,
            loc="outside upper center",
            ncols=len(groups),
            frameon=False,
        )
    return fig
