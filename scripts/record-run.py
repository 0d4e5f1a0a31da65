#!/usr/bin/python3
"""Record a finished test run in Documentation/runs/<name>.txt.

usage: record-run.py <results dir> <name> <command> [--seconds S] [--commit REV] [--base B] [--note TEXT]

Reads <results dir>/junit.xml (scripts/collect-results.py wrote it) and
writes "key: value" lines: the command, the totals, the boots, the run's
wall time when given (scripts/ci-check.sh leaves it in
<results dir>/wall-seconds), the size of build/ after the run, the commit of this repository the run was made
on (default HEAD) and the checksum of the code its series changes
(scripts/series_code.py: documents left out), so that
scripts/docs-generate.py can tell a run of the current series from one of
an earlier version. The documents take every test count from these files.
"""

import argparse
import datetime
import os
import subprocess
import sys
from xml.etree import ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from series_code import SERIES, code_checksum  # noqa: E402

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))


def die(msg):
    print(f"record-run.py: {msg}", file=sys.stderr)
    sys.exit(2)


def series_checksum(commit, base):
    """series_code.code_checksum() of the base's series and patches at commit."""
    def show(path):
        return subprocess.run(["git", "-C", ROOT, "show", f"{commit}:{path}"],
                              check=True, capture_output=True, text=True).stdout
    series, patches = SERIES[base]
    return code_checksum(show(series), lambda n: show(f"{patches}/{n}"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results")
    ap.add_argument("name")
    ap.add_argument("command")
    ap.add_argument("--seconds", type=float)
    ap.add_argument("--commit", default="HEAD")
    ap.add_argument("--base", choices=sorted(SERIES), default="6.1",
                    help="the base whose series the run tested (default 6.1)")
    ap.add_argument("--note", help="how the run was made, shown beside it (e.g. cold ccache)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="the output directory whose size is recorded (default build/)")
    args = ap.parse_args()
    junit = os.path.join(args.results, "junit.xml")
    try:
        root = ET.parse(junit).getroot()
    except (OSError, ET.ParseError) as e:
        die(f"cannot read {junit} ({e}); run the tests first")
    seconds = args.seconds
    wall = os.path.join(args.results, "wall-seconds")
    if seconds is None and os.path.exists(wall):
        seconds = float(open(wall).read())
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=7", args.commit],
                            check=True, capture_output=True, text=True).stdout.strip()
    checksum, patches = series_checksum(commit, args.base)
    tests, failed, skipped = (int(root.get(k)) for k in ("tests", "failures", "skipped"))
    rec = {
        "command": args.command,
        "passed": tests - failed - skipped,
        "failed": failed,
        "skipped": skipped,
        "boots": " ".join(s.get("name") for s in root),
        "boot_minutes": f"{float(root.get('time')) / 60:.0f}",
    }
    if seconds is not None:
        rec["minutes"] = f"{seconds / 60:.0f}"
    du = subprocess.run(["du", "-s", "--block-size=1M", args.build], check=True,
                        capture_output=True, text=True).stdout.split()[0]
    rec["build_gib"] = f"{int(du) / 1024:.1f}"
    rec.update({
        "base": args.base,
        "date": datetime.date.fromtimestamp(os.path.getmtime(junit)).isoformat(),
        "commit": commit,
        "series": checksum,
        "patches": patches,
    })
    if args.note:
        rec["note"] = args.note
    os.makedirs(os.path.join(ROOT, "Documentation", "runs"), exist_ok=True)
    path = os.path.join(ROOT, "Documentation", "runs", f"{args.name}.txt")
    with open(path, "w") as f:
        f.write(f"# {args.command}: written by scripts/record-run.py from {junit}\n")
        f.writelines(f"{k}: {v}\n" for k, v in rec.items())
    print(f"record-run.py: {path}: {rec['passed']} passed, {failed} failed, {skipped} skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
