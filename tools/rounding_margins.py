"""Find printed numbers that sit at a rounding boundary.

A chapter's stored outputs must come out again on any CPU and BLAS.  A float
printed to two decimals as 0.37 comes out as 0.36 on another machine when its
value is 0.365000000001 here: a change in the last bits, which another BLAS
kernel makes, moves it across the boundary.  This tool runs each chapter in
one IPython shell with an AST transformer that routes every rounding the
chapters do (``x.round(d)``, ``round(x, d)``, ``np.round``, f-string float
formats such as ``{x:.2f}`` / ``{x:.1e}`` / ``{x:.0%}``, and NumPy arrays
handed to ``print`` under the chapter's print precision) through a recorder,
and reports every value whose distance to the nearest rounding boundary is
below ``--margin`` times its size (and below a twentieth of the last digit).
A value that is an exact decimal tie, such as a count over 200 printed to two
decimals, is reported too: it prints the same everywhere, but 0.785 and 0.835
round in different directions, which puzzles a reader.

    python -m tools.rounding_margins chapters/*.ipynb

It is an audit, run by hand before a release; nbval under several BLAS
kernels is the test.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import os
import pathlib
import re
import sys

import numpy as np

FLOAT_SPEC = re.compile(r"^(?:.*?)\.(\d+)([eEfFgG%])$")


class Recorder:
    """Collects (cell, value, digits) whose rounding is close to a tie."""

    def __init__(self, margin):
        self.margin, self.cell, self.hits = margin, None, []

    def _check(self, value, decimals, how):
        values = np.asarray(value, dtype=float).ravel()
        for v in values[np.isfinite(values)]:
            if v == 0:
                continue
            scaled = abs(v) * 10.0**decimals
            # distance to the boundary, in units of the last printed digit
            digits_gap = abs(scaled - math.floor(scaled) - 0.5)
            near_in_digits = digits_gap < 0.05
            near_in_bits = digits_gap / 10.0**decimals < self.margin * abs(v)
            if near_in_digits and near_in_bits:
                self.hits.append((self.cell, float(v), how))

    def decimals(self, value, decimals, how):
        try:
            self._check(value, int(decimals), how)
        except (TypeError, ValueError):
            pass

    def significant(self, value, digits, how):
        try:
            values = np.asarray(value, dtype=float).ravel()
        except (TypeError, ValueError):
            return
        for v in values[np.isfinite(values) & (values != 0)]:
            exponent = math.floor(math.log10(abs(v)))
            self._check(v, digits - 1 - exponent, how)

    # the calls the transformed code makes
    def round_method(self, obj, *args, **kwargs):
        result = obj.round(*args, **kwargs)
        decimals = args[0] if args else kwargs.get("decimals", 0)
        self.decimals(_numeric(obj), decimals, ".round")
        return result

    def round_function(self, function, value, *args, **kwargs):
        decimals = (
            args[0]
            if args
            else kwargs.get("decimals", kwargs.get("ndigits", 0))
        )
        self.decimals(_numeric(value), decimals or 0, "round()")
        return function(value, *args, **kwargs)

    def formatted(self, value, spec):
        match = FLOAT_SPEC.match(spec)
        if match and isinstance(value, (float, np.floating)):
            digits, kind = int(match.group(1)), match.group(2).lower()
            if kind == "f":
                self.decimals(value, digits, f":{spec}")
            elif kind == "%":
                self.decimals(100 * value, digits, f":{spec}")
            elif kind == "e":
                self.significant(value, digits + 1, f":{spec}")
            elif kind == "g":
                self.significant(value, max(digits, 1), f":{spec}")
        return format(value, spec)

    def printed(self, *args):
        precision = np.get_printoptions()["precision"]
        for arg in args:
            if isinstance(arg, np.ndarray) and arg.dtype.kind == "f":
                self.decimals(arg, precision, "print(array)")
        return args


def _numeric(obj):
    try:
        return np.asarray(obj, dtype=float)
    except (TypeError, ValueError):
        return np.array([])


class Transformer(ast.NodeTransformer):
    """Route roundings and float formats through ``__margins__``."""

    def _recorder(self, name):
        return ast.Attribute(
            ast.Name("__margins__", ast.Load()), name, ast.Load()
        )

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "round":
            owner = func.value
            if isinstance(owner, ast.Name) and owner.id in ("np", "numpy"):
                return ast.Call(
                    self._recorder("round_function"),
                    [func, *node.args],
                    node.keywords,
                )
            return ast.Call(
                self._recorder("round_method"),
                [owner, *node.args],
                node.keywords,
            )
        if (
            isinstance(func, ast.Name)
            and func.id == "round"
            and len(node.args) >= 2
        ):
            return ast.Call(
                self._recorder("round_function"),
                [func, *node.args],
                node.keywords,
            )
        if isinstance(func, ast.Name) and func.id == "print":
            node.args = [
                ast.Starred(
                    ast.Call(self._recorder("printed"), node.args, []),
                    ast.Load(),
                )
            ]
        return node

    def visit_FormattedValue(self, node):
        self.generic_visit(node)
        if node.format_spec is None or node.conversion != -1:
            return node
        spec = ast.JoinedStr(node.format_spec.values)
        call = ast.Call(self._recorder("formatted"), [node.value, spec], [])
        return ast.FormattedValue(call, -1, None)


def audit(path, margin):
    from IPython.core.interactiveshell import InteractiveShell

    os.environ.setdefault("MPLBACKEND", "Agg")
    recorder = Recorder(margin)
    shell = InteractiveShell.instance()
    shell.user_ns["__margins__"] = recorder
    shell.ast_transformers.append(Transformer())
    cells = json.loads(pathlib.Path(path).read_text())["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    cwd = os.getcwd()
    os.chdir(pathlib.Path(path).parent)
    try:
        for i, cell in enumerate(code):
            recorder.cell = i
            result = shell.run_cell("".join(cell["source"]), silent=True)
            tags = cell.get("metadata", {}).get("tags", [])
            if not result.success and "raises-exception" not in tags:
                print(f"{path}: code cell {i} failed", file=sys.stderr)
    finally:
        os.chdir(cwd)
        InteractiveShell.clear_instance()
    return recorder.hits


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("notebooks", nargs="+")
    parser.add_argument("--margin", type=float, default=1e-9)
    args = parser.parse_args(argv)
    found = 0
    for path in args.notebooks:
        for cell, value, how in audit(path, args.margin):
            found += 1
            print(f"{path}: code cell {cell}: {value!r} rounded by {how}")
    print(
        f"{found} printed value(s) within {args.margin:g} of a rounding boundary"
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
