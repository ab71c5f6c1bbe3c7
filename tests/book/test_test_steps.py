"""The README lists the steps of ``make test`` as the Makefile runs them.

The Makefile's ``TEST_STEPS`` is the one place that orders and numbers them;
its headings and ``tools/test_summary.py`` number them from it.
"""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]


def makefile_steps() -> list[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    match = re.search(r"^TEST_STEPS\s*:=\s*(.+)$", text, re.M)
    assert match, "the Makefile defines no TEST_STEPS"
    return match.group(1).split()


def test_readme_lists_the_steps_in_order():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = re.findall(r"^(\d+)\. \*\*([\w-]+)\*\*:", readme, re.M)
    steps = makefile_steps()
    assert [name for _, name in listed] == steps
    assert [int(number) for number, _ in listed] == list(
        range(1, len(steps) + 1)
    )
    assert f"all {len(steps)} steps passed" in readme


def test_every_step_has_a_target_and_a_heading():
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    for step in makefile_steps():
        assert re.search(rf"^test-{step}:", text, re.M), step
        assert re.search(rf"^ABOUT_{step}\s*:=", text, re.M), step
