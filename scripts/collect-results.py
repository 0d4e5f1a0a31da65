#!/usr/bin/env python3
"""Turn the result channels of a run's boots into files CI can read.

usage: collect-results.py <results dir> <suite name> <boot>...

<results dir>/<boot>.raw is what one boot left on its result channel
(run-tests.sh's lines, then run-guest.sh's own findings, see run-guest.sh).
For each boot this writes <results dir>/<boot>.ktap: "KTAP version 1", the
plan line, the boot's "# key: value" lines, then one result line per test,
each preceded by its "# time:" line when it was timed; the guest's tests
first, then the host's findings (kernel-log splats, a timeout, a guest that
stopped early). Then <results dir>/junit.xml, one <testsuite> per boot.
Prints one line per boot and, last, "N passed, N failed, N skipped" for the
whole run; exits 1 exactly when a test failed.
"""

import os
import re
import socket
import sys
import time
from xml.etree import ElementTree as ET

# XML 1.0 allows none of these, and a console line may carry them.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
RESULT = re.compile(r"^(not ok|ok) (?:\d+|-) (.*?)(?: # (SKIP)?\s*(.*))?$")
PLAN = re.compile(r"^1\.\.(\d+)$")
KEYVAL = re.compile(r"^# ([a-z-]+): (.*)$")


def read_boot(path):
    """Results and "# key: value" lines of one boot's channel."""
    tests, props, pending_time, plan, before_plan = [], {}, None, None, 0
    try:
        with open(path, errors="replace") as f:
            lines = [CONTROL.sub("?", l.rstrip("\r")) for l in f.read().split("\n")]
    except FileNotFoundError:
        lines = []
    lines = [l for l in lines if l]
    for line in lines:
        m = RESULT.match(line)
        if m and plan is None and not line.startswith(("ok -", "not ok -")):
            before_plan += 1
        if m:
            status = "fail" if m.group(1) == "not ok" else \
                "skip" if m.group(3) else "pass"
            tests.append({"status": status, "name": m.group(2),
                          "reason": m.group(4) or "", "time": pending_time})
            pending_time = None
            continue
        m = KEYVAL.match(line)
        if m and m.group(1) == "time":
            pending_time = m.group(2)
        elif m:
            props[m.group(1)] = m.group(2)
        elif PLAN.match(line):
            plan = int(PLAN.match(line).group(1))
    if not lines:
        tests.append({"status": "fail", "name": "results",
                      "reason": f"no result channel {path}", "time": None})
    elif not tests:
        tests.append({"status": "fail", "name": "results",
                      "reason": "no test reported a result", "time": None})
    elif plan is None and not any(t["status"] == "fail" for t in tests):
        tests.append({"status": "fail", "name": "results",
                      "reason": "the runner printed no plan line", "time": None})
    elif plan is not None and plan != before_plan:
        tests.append({"status": "fail", "name": "results",
                      "reason": f"the runner's plan says {plan}, {before_plan} results arrived",
                      "time": None})
    return tests, props


def write_ktap(path, boot, tests, props):
    with open(path, "w") as f:
        f.write(f"KTAP version 1\n1..{len(tests)}\n# boot: {boot}\n")
        for key, value in props.items():
            f.write(f"# {key}: {value}\n")
        for i, t in enumerate(tests, 1):
            if t["time"] is not None:
                f.write(f"# time: {t['time']}\n")
            line = ("not ok" if t["status"] == "fail" else "ok") + f" {i} {t['name']}"
            if t["status"] == "skip":
                line += " # SKIP" + (f" {t['reason']}" if t["reason"] else "")
            elif t["reason"]:
                line += f" # {t['reason']}"
            f.write(line + "\n")


def count(tests, status):
    return sum(t["status"] == status for t in tests)


def junit_suite(root, boot, tests, props, stamp):
    suite = ET.SubElement(root, "testsuite", {
        "name": boot,
        "tests": str(len(tests)),
        "failures": str(count(tests, "fail")),
        "errors": "0",
        "skipped": str(count(tests, "skip")),
        "time": props.get("boot-seconds") or
        "%.3f" % sum(float(t["time"]) for t in tests if t["time"] is not None),
        "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(stamp)),
        "hostname": socket.gethostname(),
    })
    if props:
        properties = ET.SubElement(suite, "properties")
        for key, value in props.items():
            ET.SubElement(properties, "property", {"name": key, "value": value})
    for t in tests:
        attrs = {"name": t["name"],
                 "classname": boot + "." + re.split(r"[/: ]", t["name"])[0]}
        if t["time"] is not None:
            attrs["time"] = t["time"]
        case = ET.SubElement(suite, "testcase", attrs)
        if t["status"] == "fail":
            ET.SubElement(case, "failure", {"message": t["reason"] or "not ok",
                                            "type": "not ok"})
        elif t["status"] == "skip":
            ET.SubElement(case, "skipped", {"message": t["reason"]})


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: collect-results.py <results dir> <suite name> <boot>...")
    outdir, name, boots = sys.argv[1], sys.argv[2], sys.argv[3:]
    root = ET.Element("testsuites", {"name": name})
    everything = []
    for boot in boots:
        raw = os.path.join(outdir, boot + ".raw")
        tests, props = read_boot(raw)
        stamp = os.path.getmtime(raw) if os.path.exists(raw) else time.time()
        ktap = os.path.join(outdir, boot + ".ktap")
        write_ktap(ktap, boot, tests, props)
        junit_suite(root, boot, tests, props, stamp)
        everything += tests
        print(f"results: {boot}: {count(tests, 'pass')} passed, "
              f"{count(tests, 'fail')} failed, {count(tests, 'skip')} skipped ({ktap})")
    root.set("tests", str(len(everything)))
    root.set("failures", str(count(everything, "fail")))
    root.set("errors", "0")
    root.set("skipped", str(count(everything, "skip")))
    root.set("time", "%.3f" % sum(float(s.get("time")) for s in root))
    ET.indent(root)
    junit = os.path.join(outdir, "junit.xml")
    ET.ElementTree(root).write(junit, encoding="UTF-8", xml_declaration=True)
    print(f"results: {junit}")
    print(f"{count(everything, 'pass')} passed, {count(everything, 'fail')} failed, "
          f"{count(everything, 'skip')} skipped")
    return 1 if count(everything, "fail") else 0


if __name__ == "__main__":
    sys.exit(main())
