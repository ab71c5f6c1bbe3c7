"""The API page documents what ``kpca`` exports, read when the book is built.

``_ext/claims_api.layout`` decides what ``chapters/api.rst`` shows; the built
page itself is checked in tests/book/browser/test_reference_pages.py.
"""

import sys

import claims_api

import kpca


def documented(modules):
    return [path for module in modules for path, _ in module.objects]


def test_every_name_of_kpca_all_is_documented_once():
    exported, modules = claims_api.layout()
    assert exported == kpca.__all__
    paths = documented(modules)
    assert len(paths) == len(set(paths)), "a name is documented twice"
    missing = [n for n in kpca.__all__ if f"kpca.{n}" not in paths]
    assert not missing, missing


def test_every_public_submodule_and_its_all_is_documented():
    _, modules = claims_api.layout()
    names = {m.name for m in modules}
    for name in (
        "book.datasets",
        "book.plotting",
        "book.symbolic",
        "preimage",
        "feature_maps",
    ):
        assert f"kpca.{name}" in names
    assert not any(n.split(".")[-1].startswith("_") for n in names)
    paths = documented(modules)
    for module in modules:
        sub = sys.modules[module.name]
        for attr in getattr(sub, "__all__", []):
            short = f"kpca.{attr}"
            assert short in paths or f"{module.name}.{attr}" in paths


def test_a_new_module_appears_without_editing_the_page(tmp_path, monkeypatch):
    package = tmp_path / "toypkg"
    package.mkdir()
    (package / "__init__.py").write_text(
        '"""A toy package."""\nfrom .core import f\n__all__ = ["f"]\n'
    )
    (package / "core.py").write_text(
        '"""Core."""\n__all__ = ["f"]\n\ndef f():\n    """F."""\n'
    )
    (package / "approximate.py").write_text(
        '"""Approximations."""\n__all__ = ["g"]\n\nclass g:\n    """G."""\n'
    )
    (package / "_private.py").write_text('"""Hidden."""\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    exported, modules = claims_api.layout("toypkg")
    assert exported == ["f"]
    assert [(m.name, m.objects) for m in modules] == [
        ("toypkg.core", [("toypkg.f", "autofunction")]),
        ("toypkg.approximate", [("toypkg.approximate.g", "autoclass")]),
    ]
    text = "\n".join(claims_api.rst("toypkg"))
    assert ".. autoclass:: toypkg.approximate.g" in text
    assert "_private" not in text


def test_estimators_show_their_inherited_methods():
    # get_feature_names_out and set_output are defined once, in kpca._base,
    # and must appear under every estimator of the page.
    lines = claims_api.rst()
    for name in ("PCA", "KernelPCA", "ClassicalMDS"):
        at = lines.index(f".. autoclass:: kpca.{name}")
        assert lines[at + 2] == "   :inherited-members:"
    for method in ("get_feature_names_out", "set_output"):
        assert callable(getattr(kpca.NystroemKernelPCA, method))
