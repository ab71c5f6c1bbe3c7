"""The ``kpca-api`` directive: the API reference of ``kpca``, from docstrings.

The page is generated when the book is built, from what the package exports:
``kpca.__all__`` and the ``__all__`` of every public submodule (every module
of the package whose name does not start with ``_``; a new module such as
``kpca.approximate`` appears without editing the page). Each name is
documented once, under the path a reader imports it from: ``kpca.NAME`` when
the package re-exports it, ``kpca.MODULE.NAME`` otherwise. Docstrings are
numpydoc (``numpydoc`` extension); the summary tables are autosummary's.

:func:`layout` is plain Python, for the tests.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import re
import sys
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode, nested_parse_with_titles

PACKAGE = "kpca"
#: A Python cross-reference role, e.g. :mod:`kpca.kernels` or :func:`~f`.
ROLE = re.compile(
    r":(?:py:)?(?:mod|func|class|meth|obj|attr|data|exc):`~?([^`]+)`"
)


@dataclasses.dataclass
class Module:
    name: str  # "kpca.kernels"
    summary: str  # first line of the module docstring
    objects: list[tuple[str, str]]  # (documented path, autodoc directive)


def _directive(obj) -> str:
    if inspect.isclass(obj):
        if issubclass(obj, BaseException):
            return "autoexception"
        return "autoclass"
    if inspect.isroutine(obj):
        return "autofunction"
    return "autodata"


def _in_source_order(module, names: list[str]) -> list[str]:
    """``names`` in the order ``module`` defines them, the page's reading
    order (``__all__`` is kept sorted); names defined elsewhere or without
    source (constants) follow, in their ``__all__`` order."""

    def line(name: str) -> float:
        obj = getattr(module, name)
        if getattr(obj, "__module__", None) != module.__name__:
            return float("inf")
        try:
            return inspect.getsourcelines(obj)[1]
        except (OSError, TypeError):
            return float("inf")

    return sorted(names, key=line)


def layout(package: str = PACKAGE) -> tuple[list[str], list[Module]]:
    """``(package.__all__, modules)``, in the order the page shows them."""
    top = importlib.import_module(package)
    exported = list(getattr(top, "__all__", []))
    # Deprecated aliases of moved modules are not documented twice; a public
    # subpackage (kpca.book) is documented module by module.
    skipped = set(getattr(top, "_DEPRECATED_ALIASES", ()))
    names = []
    for info in pkgutil.iter_modules(top.__path__):
        if info.name.startswith("_") or info.name in skipped:
            continue
        if info.ispkg:
            sub = importlib.import_module(f"{package}.{info.name}")
            names += [
                f"{info.name}.{inner.name}"
                for inner in pkgutil.iter_modules(sub.__path__)
                if not inner.name.startswith("_")
            ]
        else:
            names.append(info.name)
    modules = {}
    for name in names:
        module = importlib.import_module(f"{package}.{name}")
        public = getattr(module, "__all__", None)
        if public is None:
            public = [
                n
                for n, obj in vars(module).items()
                if not n.startswith("_")
                and getattr(obj, "__module__", None) == module.__name__
            ]
        objects = []
        for attr in _in_source_order(module, list(public)):
            obj = getattr(module, attr)
            if attr in exported and getattr(top, attr, None) is obj:
                path = f"{package}.{attr}"
            else:
                path = f"{module.__name__}.{attr}"
            objects.append((path, _directive(obj)))
        doc = inspect.getdoc(module) or ""
        modules[name] = Module(
            module.__name__, doc.splitlines()[0] if doc else "", objects
        )
    # Modules in the order their names first appear in __all__, then the rest.
    order = []
    for attr in exported:
        for name, entry in modules.items():
            if name not in order and f"{package}.{attr}" in (
                p for p, _ in entry.objects
            ):
                order.append(name)
    order += sorted(n for n in modules if n not in order)
    documented = {p for m in modules.values() for p, _ in m.objects}
    missing = [a for a in exported if f"{package}.{a}" not in documented]
    if missing:
        # Exported names that no submodule lists: documented with the package.
        objects = [
            (f"{package}.{a}", _directive(getattr(top, a))) for a in missing
        ]
        modules["__init__"] = Module(package, "", objects)
        order.insert(0, "__init__")
    return exported, [modules[n] for n in order]


def rst(package: str = PACKAGE) -> list[str]:
    """The reStructuredText the directive parses."""
    exported, modules = layout(package)
    lines = [
        f".. py:module:: {package}",
        "",
        f"Everything ``import {package}`` provides, in the order of "
        f"``{package}.__all__``; the sections below document each module.",
        "",
        ".. autosummary::",
        "   :nosignatures:",
        "",
    ]
    lines += [f"   {name}" for name in exported]
    lines.append("")
    for module in modules:
        title = f"``{module.name}``"
        if module.summary:
            # No cross-reference roles in a heading: plain literals instead.
            summary = ROLE.sub(r"``\1``", module.summary.rstrip("."))
            title += f": {summary}"
        lines += [title, "-" * len(title), ""]
        if module.name != package:
            lines += [
                f".. automodule:: {module.name}",
                "   :no-members:",
                "",
            ]
        lines += [".. autosummary::", "   :nosignatures:", ""]
        # autosummary wants names relative to the current module.
        prefix = module.name + "."
        lines += [
            f"   {path[len(prefix) :] if path.startswith(prefix) else path}"
            for path, _ in module.objects
        ]
        lines.append("")
        for path, directive in module.objects:
            lines.append(f".. {directive}:: {path}")
            if directive in ("autoclass", "autoexception"):
                lines.append("   :members:")
            if directive == "autoclass":
                # The estimators' shared methods (get_params, set_output,
                # get_feature_names_out) live in the private kpca._base.
                lines.append("   :inherited-members:")
            lines.append("")
    return lines


class KpcaApi(SphinxDirective):
    has_content = False
    optional_arguments = 1

    def run(self):
        package = self.arguments[0] if self.arguments else PACKAGE
        # Rebuild the page whenever a module of the package changes.
        top = importlib.import_module(package)
        for path in Path(str(top.__file__)).parent.glob("*.py"):
            self.env.note_dependency(str(path))
        holder = nodes.section()
        holder.document = self.state.document
        nested_parse_with_titles(
            self.state,
            StringList(rst(package), source=f"<{package} API>"),
            holder,
        )
        return list(holder.children)


def resolve_alias(app: Sphinx, env, node, contnode):
    """Resolve ``kpca.eigen.top_eigenpairs`` to the documented
    ``kpca.top_eigenpairs`` (the same object, re-exported), and a bare
    ``polynomial_exponents`` to the one public object of that name."""
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "").lstrip("~.")
    if not target.startswith(PACKAGE + ".") and "." in target:
        return None
    objects = env.get_domain("py").objects
    last = target.rsplit(".", 1)[-1]
    candidates = [
        name
        for name in objects
        if name.startswith(PACKAGE + ".")
        and name.rsplit(".", 1)[-1] == last
        and not objects[name].aliased
    ]
    if len(candidates) != 1:
        return None
    entry = objects[candidates[0]]
    return make_refnode(
        app.builder,
        node["refdoc"],
        entry.docname,
        entry.node_id,
        contnode,
        candidates[0],
    )


def configure(app: Sphinx, config) -> None:
    # The book documents the package in its own repository: make sure the
    # import finds it (the editable install points at the same files).
    root = str(Path(app.srcdir).resolve())
    if root not in sys.path:
        sys.path.insert(0, root)
    defaults = {
        "numpydoc_show_class_members": False,
        "numpydoc_class_members_toctree": False,
        "numpydoc_xref_param_type": False,
        "autosummary_generate": False,
        "autodoc_member_order": "bysource",
    }
    for name, value in defaults.items():
        if name not in config._raw_config:
            setattr(config, name, value)


def setup(app: Sphinx) -> None:
    app.setup_extension("sphinx.ext.autodoc")
    app.setup_extension("sphinx.ext.autosummary")
    app.setup_extension("numpydoc")
    app.connect("config-inited", configure, priority=400)
    app.add_directive("kpca-api", KpcaApi)
    app.connect("missing-reference", resolve_alias)
