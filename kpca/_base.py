"""The estimator protocol shared by :class:`~kpca.PCA`, :class:`~kpca.KernelPCA` and
:class:`~kpca.ClassicalMDS`.

The estimators follow scikit-learn's conventions without depending on it: the
constructor only stores its keyword arguments under their own names,
:meth:`~BaseEstimator.get_params` and :meth:`~BaseEstimator.set_params` read
and write them (so ``sklearn.base.clone``, ``Pipeline`` and ``GridSearchCV``
work), ``fit`` validates everything before it changes any attribute, and the
fitted attributes end in ``_``.  scikit-learn is imported only when
scikit-learn itself asks for the estimator tags.

Every estimator also has scikit-learn's output API, written here without
scikit-learn: ``feature_names_in_`` (the column names of a DataFrame given to
``fit``), :meth:`~BaseEstimator.get_feature_names_out` (``"pca0"``,
``"pca1"``, ... after the lower-case class name) and
:meth:`~BaseEstimator.set_output`, which makes ``transform`` and
``fit_transform`` return a pandas DataFrame (pandas is then needed, and
imported only then).
"""

from __future__ import annotations

import functools
import inspect
import warnings
from typing import Any

import numpy as np

__all__ = [
    "BaseEstimator",
    "NotFittedError",
    "check_is_fitted",
    "check_n_features",
    "feature_names_of",
]


class NotFittedError(ValueError, AttributeError):
    """A method that needs a fitted model was called before ``fit``.

    It is both a :class:`ValueError` and an :class:`AttributeError`, like
    scikit-learn's exception of the same name, so either ``except`` catches it.
    """


def check_is_fitted(estimator: Any, attribute: str) -> None:
    """Raise :class:`NotFittedError` unless ``estimator`` has the fitted ``attribute``."""
    if not hasattr(estimator, attribute):
        raise NotFittedError(
            f"this {type(estimator).__name__} instance is not fitted yet: call fit before using it"
        )


def check_n_features(estimator: Any, X: np.ndarray, name: str = "X") -> None:
    """Raise ``ValueError`` unless ``X`` has the ``n_features_in_`` columns seen in ``fit``."""
    expected = estimator.n_features_in_
    if X.shape[1] != expected:
        raise ValueError(
            f"{name} has {X.shape[1]} features, but {type(estimator).__name__} is expecting "
            f"{expected} features as input"
        )


def feature_names_of(X: Any) -> np.ndarray | None:
    """The column names of a DataFrame as an object array, or None.

    Names are recorded only when every column name is a string, as
    scikit-learn does; anything without ``columns`` (an array, a list, a
    sparse matrix) has none.
    """
    columns = getattr(X, "columns", None)
    if columns is None or isinstance(X, np.ndarray):
        return None
    names = np.asarray(list(columns), dtype=object)
    if names.ndim != 1 or not all(isinstance(c, str) for c in names):
        return None
    return names


_OUTPUT_CONTAINERS = ("default", "pandas")


def _wrap_output(method):
    """Return ``method``'s array as a DataFrame after ``set_output("pandas")``."""

    @functools.wraps(method)
    def wrapped(self, X, *args, **kwargs):
        Z = method(self, X, *args, **kwargs)
        config = getattr(self, "_sklearn_output_config", {})
        if config.get("transform", "default") != "pandas" or hasattr(
            Z,
            "columns",  # fit_transform through a wrapped transform
        ):
            return Z
        pd = _import_pandas()
        index = getattr(X, "index", None) if hasattr(X, "columns") else None
        return pd.DataFrame(
            Z, index=index, columns=self.get_feature_names_out()
        )

    wrapped._kpca_wraps_output = True  # type: ignore[attr-defined]
    return wrapped


def _import_pandas():
    try:
        import pandas
    except ImportError:  # pragma: no cover - pandas is in the test env
        raise ImportError(
            'set_output(transform="pandas") needs pandas: pip install pandas'
        ) from None
    return pandas


class BaseEstimator:
    """Parameters, ``repr``, tags and output API in scikit-learn's protocol.

    Subclasses define ``__init__`` with keyword arguments only (after an
    optional positional ``n_components``) and store each one unchanged under
    its own name; validation happens in ``fit``.  Their ``transform`` and
    ``fit_transform`` are wrapped so that :meth:`set_output` applies to them.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("transform", "fit_transform"):
            method = cls.__dict__.get(name)
            if method is not None and not getattr(
                method, "_kpca_wraps_output", False
            ):
                setattr(cls, name, _wrap_output(method))

    # -- feature names -------------------------------------------------------
    def _check_feature_names(self, X: Any, *, reset: bool) -> Any:
        """The names of ``X``'s columns in ``fit`` (``reset``), checked later.

        In ``fit`` this returns the names (or None) for :meth:`_set_n_features`
        to record at the end of the fit.  Afterwards it checks ``X`` against
        the names seen in ``fit``, with scikit-learn's messages: other names
        raise ``ValueError``; names only on one side warn.
        """
        names = feature_names_of(X)
        if reset:
            return names
        fitted = getattr(self, "feature_names_in_", None)
        if fitted is None and names is None:
            return None
        if fitted is None:
            warnings.warn(
                f"X has feature names, but {type(self).__name__} was fitted "
                "without feature names",
                UserWarning,
                stacklevel=3,
            )
            return None
        if names is None:
            warnings.warn(
                "X does not have valid feature names, but "
                f"{type(self).__name__} was fitted with feature names",
                UserWarning,
                stacklevel=3,
            )
            return None
        if len(names) != len(fitted) or np.any(names != fitted):
            raise ValueError(
                "The feature names should match those that were passed "
                f"during fit: fitted with {list(fitted)}, got {list(names)}"
            )
        return None

    def _set_n_features(self, n_features: int, names: Any) -> None:
        """Record ``n_features_in_`` and ``feature_names_in_`` (end of ``fit``)."""
        self.n_features_in_ = n_features
        if names is not None and len(names) == n_features:
            self.feature_names_in_ = names
        else:
            self.__dict__.pop("feature_names_in_", None)

    @property
    def _n_features_out(self) -> int:
        return int(self.n_components_)  # type: ignore[attr-defined]

    def get_feature_names_out(self, input_features: Any = None) -> np.ndarray:
        """Names of the output columns: the class name in lower case and a number.

        Parameters
        ----------
        input_features : array_like of str, optional
            Checked against ``feature_names_in_`` (or their number against
            ``n_features_in_``) and otherwise unused: each output is a
            combination of every input.

        Returns
        -------
        ndarray of str objects, shape (n_outputs,)
            ``["pca0", "pca1", ...]`` for :class:`~kpca.PCA`, one name per
            output column (``n_components_`` of them), as scikit-learn
            names its own transformers' outputs.

        Examples
        --------
        >>> import numpy as np
        >>> from kpca import PCA
        >>> X = np.random.default_rng(0).normal(size=(10, 3))
        >>> PCA(2).fit(X).get_feature_names_out().tolist()
        ['pca0', 'pca1']
        """
        check_is_fitted(self, "n_features_in_")
        if input_features is not None:
            given = np.asarray(input_features, dtype=object)
            fitted = getattr(self, "feature_names_in_", None)
            if fitted is not None and (
                len(given) != len(fitted) or np.any(given != fitted)
            ):
                raise ValueError(
                    "input_features is not equal to feature_names_in_"
                )
            if fitted is None and len(given) != self.n_features_in_:
                raise ValueError(
                    f"input_features should have length equal to number of "
                    f"features ({self.n_features_in_}), got {len(given)}"
                )
        prefix = type(self).__name__.lower()
        return np.asarray(
            [f"{prefix}{i}" for i in range(self._n_features_out)],
            dtype=object,
        )

    def set_output(self, *, transform: str | None = None) -> BaseEstimator:
        """Choose the container ``transform`` and ``fit_transform`` return.

        Parameters
        ----------
        transform : {"default", "pandas"}, optional
            ``"pandas"``: a ``pandas.DataFrame`` whose columns are
            :meth:`get_feature_names_out` and whose index is that of the
            input when it is a DataFrame; ``"default"``: a NumPy array;
            None leaves the choice unchanged.  scikit-learn's ``Pipeline``
            and ``ColumnTransformer`` call this for their steps.

        Returns
        -------
        self

        Examples
        --------
        >>> import numpy as np
        >>> from kpca import PCA
        >>> X = np.random.default_rng(0).normal(size=(10, 3))
        >>> Z = PCA(2).set_output(transform="pandas").fit_transform(X)
        >>> list(Z.columns), Z.shape
        (['pca0', 'pca1'], (10, 2))
        """
        if transform is None:
            return self
        if transform not in _OUTPUT_CONTAINERS:
            raise ValueError(
                f"transform must be one of {_OUTPUT_CONTAINERS} or None, "
                f"got {transform!r}"
            )
        if transform == "pandas":
            _import_pandas()
        # The attribute scikit-learn's clone copies to the clone.
        config = dict(getattr(self, "_sklearn_output_config", {}))
        config["transform"] = transform
        self._sklearn_output_config = config
        return self

    @classmethod
    def _param_names(cls) -> list[str]:
        signature = inspect.signature(cls.__init__)
        return sorted(
            name
            for name, p in signature.parameters.items()
            if name != "self"
            and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)
        )

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """The constructor parameters and their current values.

        Parameters
        ----------
        deep : bool, default True
            Accepted for scikit-learn compatibility; no parameter of a
            :mod:`kpca` estimator is itself an estimator.

        Returns
        -------
        dict
            Parameter name to value.
        """
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params: Any) -> BaseEstimator:
        """Set constructor parameters; unknown names raise ``ValueError``.

        Nothing is validated here (``fit`` does that), and fitted attributes
        are left as they are until the next ``fit``.

        Returns
        -------
        self
        """
        valid = self._param_names()
        for name in params:
            if name not in valid:
                raise ValueError(
                    f"invalid parameter {name!r} for {type(self).__name__}; valid parameters: {valid}"
                )
        for name, value in params.items():
            setattr(self, name, value)
        return self

    def __repr__(self) -> str:
        # Only the parameters that differ from their defaults, as scikit-learn prints them.
        signature = inspect.signature(type(self).__init__)
        changed = []
        for name in self._param_names():
            value = getattr(self, name)
            default = signature.parameters[name].default
            if not _same(value, default):
                changed.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(changed)})"

    # Whether float32 input gives float32 output, and whether scipy.sparse
    # input is accepted (the estimator tags say the same to scikit-learn).
    _keeps_float32 = False
    _accepts_sparse = False

    def __sklearn_tags__(self):
        # Only scikit-learn calls this, so it is installed whenever this runs.
        from sklearn.utils import Tags, TargetTags, TransformerTags

        tags = Tags(
            estimator_type=None, target_tags=TargetTags(required=False)
        )
        if hasattr(self, "transform"):
            tags.transformer_tags = TransformerTags()
            if self._keeps_float32:
                tags.transformer_tags.preserves_dtype = ["float64", "float32"]
        tags.input_tags.sparse = bool(self._accepts_sparse)
        return tags


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    try:
        return bool(a == b)
    except Exception:  # arrays and other objects without a truth value
        return False
