"""The estimator protocol shared by :class:`~kpca.PCA`, :class:`~kpca.KernelPCA` and
:class:`~kpca.ClassicalMDS`.

The estimators follow scikit-learn's conventions without depending on it: the
constructor only stores its keyword arguments under their own names,
:meth:`~BaseEstimator.get_params` and :meth:`~BaseEstimator.set_params` read
and write them (so ``sklearn.base.clone``, ``Pipeline`` and ``GridSearchCV``
work), ``fit`` validates everything before it changes any attribute, and the
fitted attributes end in ``_``.  scikit-learn is imported only when
scikit-learn itself asks for the estimator tags.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

__all__ = [
    "BaseEstimator",
    "NotFittedError",
    "check_is_fitted",
    "check_n_features",
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


class BaseEstimator:
    """Parameters, ``repr`` and tags in scikit-learn's protocol.

    Subclasses define ``__init__`` with keyword arguments only (after an
    optional positional ``n_components``) and store each one unchanged under
    its own name; validation happens in ``fit``.
    """

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

    def __sklearn_tags__(self):
        # Only scikit-learn calls this, so it is installed whenever this runs.
        from sklearn.utils import Tags, TargetTags, TransformerTags

        tags = Tags(
            estimator_type=None, target_tags=TargetTags(required=False)
        )
        if hasattr(self, "transform"):
            tags.transformer_tags = TransformerTags()
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
