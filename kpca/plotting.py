"""Small matplotlib helpers that several chapters share.

They draw on a given ``Axes`` (or make one) and return it, so a chapter can
compose them; colours and fonts come from the active matplotlib style.
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

__all__ = ["scatter_labelled", "image_grid"]


def scatter_labelled(
    Z: np.ndarray,
    labels: Optional[Sequence] = None,
    ax=None,
    *,
    names: Optional[Sequence[str]] = None,
    xlabel: str = "component 1",
    ylabel: str = "component 2",
    title: Optional[str] = None,
    **scatter_kwargs,
):
    """Scatter the first two columns of ``Z``, one colour (and legend entry) per label."""
    import matplotlib.pyplot as plt

    Z = np.asarray(Z, dtype=float)
    if Z.ndim != 2 or Z.shape[1] < 1:
        raise ValueError(f"Z must be a 2-D array with at least one column, got shape {Z.shape}")
    if ax is None:
        _, ax = plt.subplots(figsize=(4.5, 4))
    y = Z[:, 1] if Z.shape[1] > 1 else np.zeros(len(Z))
    if labels is None:
        ax.scatter(Z[:, 0], y, **scatter_kwargs)
    else:
        labels = np.asarray(labels)
        for i, lab in enumerate(np.unique(labels)):
            mask = labels == lab
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
    titles: Optional[Sequence[str]] = None,
    cmap: str = "gray",
    symmetric: bool = False,
    size: float = 1.2,
):
    """Show the rows of ``images`` (flattened) as a grid of pictures; return the figure.

    ``symmetric=True`` centres the colour scale of each picture on 0, which is
    how eigenfaces (signed vectors) should be shown.
    """
    import matplotlib.pyplot as plt

    images = np.asarray(images, dtype=float)
    n = len(images)
    n_rows = int(np.ceil(n / n_cols))
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(size * n_cols, size * 1.15 * n_rows), squeeze=False)
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
            ax.set_title(titles[i], fontsize=8)
    return fig
