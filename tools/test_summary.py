"""The last lines of one ``make test`` run: a time per step, and the count.

    python tools/test_summary.py REPORT_DIR STEP [STEP ...]

REPORT_DIR holds the JUnit reports of the run's pytest invocations and
``times.txt``, one line ``name wall user sys`` (seconds, bash's ``time``) per
step, written by the Makefile; ``setup`` is installing the environment and
Chromium when they are missing. CPU is user plus system time of the step and
all its processes: on a shared machine it varies less than the wall time.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def read_counts(reports: Path) -> dict[str, int]:
    counts = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    for path in sorted(reports.glob("*.xml")):
        for suite in ET.parse(path).getroot().iter("testsuite"):
            for key in counts:
                counts[key] += int(suite.get(key, 0))
    return counts


def read_times(reports: Path) -> dict[str, tuple[float, float]]:
    """Step name -> (wall, CPU) seconds."""
    times = {}
    path = reports / "times.txt"
    if path.is_file():
        for line in path.read_text().splitlines():
            name, wall, user, system = line.split()
            times[name] = (float(wall), float(user) + float(system))
    return times


def duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes:d} min {rest:02d} s" if minutes else f"{rest:d} s"


def time_table(times: dict[str, tuple[float, float]], steps: list[str]):
    rows = [("", "setup", *times["setup"])] if "setup" in times else []
    rows += [
        (f"{i}.", step, *times[step])
        for i, step in enumerate(steps, 1)
        if step in times
    ]
    width = max([len(step) for _, step, *_ in rows] + [5])
    lines = [f"{'':3s} {'step':{width}s} {'wall':>12s} {'CPU':>12s}"]
    for number, step, wall, cpu in rows:
        lines.append(
            f"{number:3s} {step:{width}s} {duration(wall):>12s} "
            f"{duration(cpu):>12s}"
        )
    wall = sum(row[2] for row in rows)
    cpu = sum(row[3] for row in rows)
    lines.append(
        f"{'':3s} {'total':{width}s} {duration(wall):>12s} "
        f"{duration(cpu):>12s}"
    )
    return lines, wall


def main(argv: list[str]) -> int:
    reports, steps = Path(argv[0]), argv[1:]
    counts = read_counts(reports)
    lines, wall = time_table(read_times(reports), steps)
    print("\n".join(lines))
    passed = counts["tests"] - sum(
        counts[k] for k in ("failures", "errors", "skipped")
    )
    print(
        f"make test: all {len(steps)} steps passed: {passed:,} tests "
        f"passed, {counts['skipped']} skipped, {counts['failures']} failed, "
        f"in {wall / 60:.0f} min"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
