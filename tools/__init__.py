"""The book's tools: install cells, the whole-book PDF, the browser set-up
that the rendered-book tests share, the test summary.

Run them from the repository root as modules (``python -m tools.build_pdf``);
pytest puts the root on the path (``pythonpath`` in ``pyproject.toml``).
"""
