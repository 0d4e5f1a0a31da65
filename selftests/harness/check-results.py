#!/usr/bin/env python3
"""Check the result files of a make check run against each other.

usage: check-results.py <results dir> <summary line> <exit status>

Every <boot>.ktap: "KTAP version 1", then the plan "1..N", then N result
lines numbered 1..N in order (diagnostics may come between); junit.xml valid
against junit.xsd (xmllint) and holding, per boot, the same tests with the
same outcomes as the KTAP file; the totals equal to <summary line>
("N passed, N failed, N skipped"), and <exit status> non-zero exactly when
something failed. Prints each finding; exits 1 on any.
"""

import os
import re
import subprocess
import sys
from xml.etree import ElementTree as ET

RESULT = re.compile(r"^(not ok|ok) (\d+) (.*?)(?: # (SKIP)?.*)?$")


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: check-results.py <results dir> <summary line> <exit status>")
    outdir, summary, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
    bad = []
    m = re.fullmatch(r"(\d+) passed, (\d+) failed, (\d+) skipped", summary)
    if not m:
        sys.exit(f"check-results: not a summary line: {summary!r}")
    want = dict(zip(("pass", "fail", "skip"), map(int, m.groups())))

    ktap = {}
    for name in sorted(os.listdir(outdir)):
        if not name.endswith(".ktap"):
            continue
        lines = open(os.path.join(outdir, name)).read().splitlines()
        boot = name[:-5]
        if lines[:1] != ["KTAP version 1"]:
            bad.append(f"{name}: first line is not 'KTAP version 1'")
        plan = re.fullmatch(r"1\.\.(\d+)", lines[1]) if len(lines) > 1 else None
        if not plan:
            bad.append(f"{name}: second line is not the plan '1..N'")
        results = []
        for line in lines[2:]:
            r = RESULT.match(line)
            if r:
                outcome = "fail" if r.group(1) == "not ok" else "skip" if r.group(4) else "pass"
                if int(r.group(2)) != len(results) + 1:
                    bad.append(f"{name}: test {r.group(2)} out of order")
                results.append((r.group(3), outcome))
            elif not line.startswith("#"):
                bad.append(f"{name}: neither a result nor a diagnostic: {line!r}")
        if plan and int(plan.group(1)) != len(results):
            bad.append(f"{name}: plan says {plan.group(1)}, {len(results)} results")
        ktap[boot] = results

    junit = os.path.join(outdir, "junit.xml")
    xsd = os.path.join(os.path.dirname(os.path.realpath(__file__)), "junit.xsd")
    lint = subprocess.run(["xmllint", "--noout", "--schema", xsd, junit],
                          capture_output=True, text=True)
    if lint.returncode:
        bad.append(f"junit.xml does not validate against junit.xsd: {lint.stderr.strip()}")
    root = ET.parse(junit).getroot()
    suites = {}
    for suite in root.iter("testsuite"):
        cases = []
        for case in suite.iter("testcase"):
            outcome = "fail" if case.find("failure") is not None else \
                "skip" if case.find("skipped") is not None else "pass"
            cases.append((case.get("name"), outcome))
        suites[suite.get("name")] = cases
        for attr, outcome in (("failures", "fail"), ("skipped", "skip"), ("tests", None)):
            if int(suite.get(attr)) != sum(outcome in (None, o) for _, o in cases):
                bad.append(f"junit.xml: {suite.get('name')}: {attr}= disagrees with its testcases")
    if suites != ktap:
        bad.append(f"junit.xml and the KTAP files disagree: {sorted(suites)} vs {sorted(ktap)}")

    every = [o for results in ktap.values() for _, o in results]
    for attr, outcome in (("failures", "fail"), ("skipped", "skip"), ("tests", None)):
        if int(root.get(attr)) != sum(outcome in (None, o) for o in every):
            bad.append(f"junit.xml: <testsuites {attr}=> disagrees with the KTAP files")
    got = {k: every.count(k) for k in want}
    if got != want:
        bad.append(f"the KTAP files count {got}, the summary line says {want}")
    if (status != 0) != (want["fail"] != 0):
        bad.append(f"exit status {status} with {want['fail']} failed")
    for b in bad:
        print(f"check-results: {b}")
    print(f"check-results: {len(ktap)} KTAP file(s), junit.xml: "
          f"{'consistent' if not bad else f'{len(bad)} problem(s)'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
