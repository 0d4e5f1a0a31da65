#!/usr/bin/env python3
"""The generated tables of Documentation/attached-cost.md.

usage: breakdown-docs.py [--check] <document> <results dir>

Rewrites each block of <document> between a line
"<!-- breakdown:<what> -->" and the next "<!-- /breakdown -->" from the
results of scripts/hook-breakdown.py kept in <results dir>, one directory
per kernel (<base>-series, <base>-stock: the <outdir> of a run, copied
there), each with its breakdown.json; and, for the 6.1 kernels, from
make bench's Documentation/bench/results.csv. <what> is
  totals                   instructions of one call per kernel: no
                           program, one program, the difference
  parts                    the difference per part, a column per kernel
  subparts:<part>          the difference per sub-part of <part>, image
                           (by the call each run of its instructions leads
                           to) or prog_enter_exit (__bpf_prog_enter*/exit*
                           and callees), a column per kernel
  functions:<kernel>       one kernel's instructions per function
  trace:<kernel>:<part>    the instructions of one part, one program
  bench                    the difference against make bench's mprotect
  hypothesis               the parts that an image only security.c calls
                           might not need, a column per kernel
--check: change nothing, exit 1 if the document is not as generated.
"""
import csv
import importlib.util
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_blocks import rewrite_blocks  # noqa: E402

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
# make bench's results and configurations (set defconfig) of each kernel:
# no program, the allow-all lsm/file_mprotect program (None: no run of it).
# The 6.1 series whose images call the nop is that of the run with
# call-site trampolines; the 6.1 series and stock 6.1 are in the run of
# the whole series (bench/6.1).
BENCH = {"6.1-series-call-orig": ("Documentation/bench/callsite/results.csv", "3", "5"),
         "6.1-series-migrate": (None, "", ""),
         "6.1-series": ("Documentation/bench/6.1/results.csv", "3", "5"),
         "6.1-stock": ("Documentation/bench/6.1/results.csv", "2", "4"),
         "6.12-series-migrate": ("Documentation/bench/6.12-migrate/results.csv", "3", "5"),
         "6.12-series": ("Documentation/bench/6.12/results.csv", "3", "5"),
         "6.12-stock": ("Documentation/bench/6.12/results.csv", "2", "4"),
         "6.12-arm64-series": ("Documentation/bench/6.12-arm64/results.csv", "3", "5"),
         "6.12-arm64-stock": ("Documentation/bench/6.12-arm64/results.csv", "2", "4"),
         "6.1-arm64-series": ("Documentation/bench/6.1-arm64/results.csv", "3", "5")}
# The same comparison between kernels with no program: (kernel, kernel,
# make bench run, the configurations of each with no program).
NONE_PAIRS = [("6.12-stock", "6.12-series", "Documentation/bench/6.12/results.csv", "2", "3"),
              ("6.12-arm64-stock", "6.12-arm64-series", "Documentation/bench/6.12-arm64/results.csv", "2", "3")]
ORDER = ["6.1-series-call-orig", "6.1-series-migrate", "6.1-series", "6.1-stock",
         "6.12-series-call-orig", "6.12-series-migrate", "6.12-series", "6.12-stock",
         "6.12-arm64-series", "6.12-arm64-stock", "6.1-arm64-series"]


def hook_breakdown():
    """scripts/hook-breakdown.py as a module: the parts and sub-parts it
    counts, in the order of its tables."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hook-breakdown.py")
    spec = importlib.util.spec_from_file_location("hook_breakdown", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def markdown(label):
    """A part's label with its kernel symbols as code."""
    return " ".join(f"`{w}`" if "__" in w else w for w in label.split(" "))


_hb = hook_breakdown()
PARTS = [(key, markdown(label)) for key, label in _hb.PARTS]
SUBPARTS = _hb.SUBPARTS
USAGE = "usage: breakdown-docs.py [--check] <document> <results dir>"


def die(msg):
    print(f"breakdown-docs: {msg}", file=sys.stderr)
    sys.exit(2)


def load(resdir):
    res = {}
    for name in sorted(os.listdir(resdir)):
        path = os.path.join(resdir, name, "breakdown.json")
        if os.path.isfile(path):
            with open(path) as f:
                res[name] = json.load(f)
    if not res:
        die(f"no <kernel>/breakdown.json under {resdir}")
    return dict(sorted(res.items(), key=lambda kv: (ORDER.index(kv[0]) if kv[0] in ORDER else len(ORDER), kv[0])))


def guest_field(r, cfg, key):
    m = re.search(rf"\b{key}=(\S+)", r["configs"][cfg]["guest"])
    return m.group(1) if m else "?"


def totals(res):
    out = ["| kernel | `uname -r` (guest) | active LSMs | no program | one program | difference | "
           "samples alike: no program, one program |",
           "|---|---|---|---:|---:|---:|---|"]
    notes = []
    for name, r in res.items():
        n, p = r["configs"]["none"], r["configs"]["prog"]
        alike = []
        for cfg, c in (("no program", n), ("one program", p)):
            k = len(c["sample_counts"])
            alike.append(f"{k - len(c['sample_notes'])}/{k}")
            notes += [f"- {name}, {cfg}, {x}" for x in c["sample_notes"]]
        out.append(f"| {name} | {guest_field(r, 'none', 'kernel')} | {guest_field(r, 'none', 'lsm')} | "
                   f"{n['total']} | {p['total']} | {p['total'] - n['total']:+d} | {', '.join(alike)} |")
    if notes:
        out += ["", "Samples that executed other instructions than the one tabulated:", ""] + notes
    return out


def parts(res):
    names = list(res)
    out = ["| part | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for key, title in PARTS:
        vals = [r["configs"]["prog"]["parts"][key] - r["configs"]["none"]["parts"][key] for r in res.values()]
        if any(r["configs"][c]["parts"][key] for r in res.values() for c in ("none", "prog")):
            out.append(f"| {title} | " + " | ".join(f"{v:+d}" for v in vals) + " |")
    out.append("| **total** | " + " | ".join(
        f"**{r['configs']['prog']['total'] - r['configs']['none']['total']:+d}**" for r in res.values()) + " |")
    return out


def subparts(res, part):
    names = list(res)
    subs = list(SUBPARTS) if part == "prog_enter_exit" else []
    for r in res.values():
        for c in ("prog", "none"):
            subs += [s for s in r["configs"][c]["subparts"][part] if s not in subs]
    title = dict(PARTS)[part]
    out = [f"| {title} | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for s in subs:
        vals = [r["configs"]["prog"]["subparts"][part].get(s, 0) - r["configs"]["none"]["subparts"][part].get(s, 0)
                for r in res.values()]
        if any(vals):
            out.append(f"| {s} | " + " | ".join(f"{v:+d}" for v in vals) + " |")
    return out


def diff(r, get):
    return get(r["configs"]["prog"]) - get(r["configs"]["none"])


# What an image that only security.c calls might not need: (row, value of
# one configuration).
HYPOTHESIS = [
    ("percpu ref: `__bpf_tramp_enter`/`__bpf_tramp_exit` and callees",
     lambda c: c["parts"]["tramp_ref"]),
    ("percpu ref: the image's argument loads and calls of them",
     lambda c: c["image_calls"].get("__bpf_tramp_enter", 0) + c["image_calls"].get("__bpf_tramp_exit", 0)),
    ("the nop for the default: its instructions",
     lambda c: c["parts"]["nop_default"]),
    ("the nop for the default: the image's argument loads and call",
     lambda c: c["image_calls"].get("the nop (default)", 0)),
    ("`__bpf_prog_enter`/`exit`: RCU", lambda c: c["subparts"]["prog_enter_exit"].get("RCU", 0)),
    ("`__bpf_prog_enter`/`exit`: migrate_disable/enable",
     lambda c: c["subparts"]["prog_enter_exit"].get("migrate_disable/enable", 0)),
    ("`__bpf_prog_enter`/`exit`: preempt_disable/enable",
     lambda c: c["subparts"]["prog_enter_exit"].get("preempt_disable/enable", 0)),
    ("`__bpf_prog_enter`/`exit`: recursion counter",
     lambda c: c["subparts"]["prog_enter_exit"].get("recursion counter", 0)),
    ("`__bpf_prog_enter`/`exit`: stats", lambda c: c["subparts"]["prog_enter_exit"].get("stats", 0)),
]


def hypothesis(res):
    names = list(res)
    out = ["| what | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    sums = [0] * len(names)
    for title, get in HYPOTHESIS:
        vals = [diff(r, get) for r in res.values()]
        sums = [a + b for a, b in zip(sums, vals)]
        out.append(f"| {title} | " + " | ".join(f"{v:+d}" for v in vals) + " |")
    totals = [diff(r, lambda c: c["total"]) for r in res.values()]
    out.append("| **sum** | " + " | ".join(f"**{v:+d}**" for v in sums) + " |")
    out.append("| difference of the call (all parts) | " + " | ".join(f"{v:+d}" for v in totals) + " |")
    out.append("| sum / difference | " + " | ".join(f"{100 * a / b:.0f} %" for a, b in zip(sums, totals)) + " |")
    return out


def functions(r):
    n, p = dict(r["configs"]["none"]["functions"]), dict(r["configs"]["prog"]["functions"])
    order = list(dict.fromkeys([s for s, _ in r["configs"]["prog"]["functions"]] +
                               [s for s, _ in r["configs"]["none"]["functions"]]))
    out = ["| function | no program | one program | difference |", "|---|---:|---:|---:|"]
    for s in order:
        name = s if s in ("trampoline image", "BPF program") else f"`{s}`"
        out.append(f"| {name} | {n.get(s, 0)} | {p.get(s, 0)} | {p.get(s, 0) - n.get(s, 0):+d} |")
    tn, tp = r["configs"]["none"]["total"], r["configs"]["prog"]["total"]
    out.append(f"| **total** | **{tn}** | **{tp}** | **{tp - tn:+d}** |")
    return out


def trace(r, part):
    """The instructions of one part, one program; a call names its callee."""
    tr = r["configs"]["prog"]["trace"]
    out = ["```"]
    for k, i in enumerate(tr):
        if i["part"] != part:
            continue
        callee = f"  # {tr[k + 1]['sym']}" if i["asm"].startswith("call") and k + 1 < len(tr) else ""
        out.append(f"{i['sym']}+{i['off']:#x}".ljust(34) + i["asm"] + callee)
    out.append("```")
    return out


def bench_rows(path):
    """The mprotect rows of set defconfig by configuration; None if there
    is no such run."""
    if not os.path.exists(os.path.join(ROOT, path)):
        return None
    rows = {}
    with open(os.path.join(ROOT, path), newline="") as f:
        for row in csv.DictReader(f):
            if row["set"] == "defconfig" and row["op"] == "mprotect":
                rows[row["config"]] = row
    return rows


def bench(res):
    out = ["| kernel | make bench run | no program | one program | difference | `uname -r` (bench) | "
           "breakdown: difference | `uname -r` (breakdown) | breakdown − bench |",
           "|---|---|---:|---:|---:|---|---:|---|---:|"]
    for name, (path, cn, cp) in BENCH.items():
        if path is None:
            out.append(f"| {name} | no run of this series yet | | | | | | | |")
            continue
        rows = bench_rows(path)
        if rows is None:
            out.append(f"| {name} | no `{path}` | | | | | | | |")
            continue
        if cn not in rows or cp not in rows:
            die(f"{path} has no mprotect row of set defconfig, configuration {cn} or {cp}")
        bn, bp = float(rows[cn]["ns_per_op"]), float(rows[cp]["ns_per_op"])
        if name in res:
            r = res[name]
            d = r["configs"]["prog"]["total"] - r["configs"]["none"]["total"]
            tail = f"{d:+d} | {guest_field(r, 'none', 'kernel')} | {d - (bp - bn):+.2f}"
        else:
            tail = "not run | | "
        link = os.path.relpath(os.path.join(ROOT, path).replace("results.csv", "results.md"),
                               os.path.join(ROOT, "Documentation"))
        out.append(f"| {name} | [{os.path.dirname(link)}]({link}) ({cn}), ({cp}) | {bn:.1f} | {bp:.1f} | "
                   f"{bp - bn:+.1f} | {rows[cp]['uname']} | {tail} |")
    pairs = []
    for a, b, path, ca, cb in NONE_PAIRS:
        rows = bench_rows(path)
        if rows is None or a not in res or b not in res or ca not in rows or cb not in rows:
            continue
        ba, bb = float(rows[ca]["ns_per_op"]), float(rows[cb]["ns_per_op"])
        ta, tb = res[a]["configs"]["none"]["total"], res[b]["configs"]["none"]["total"]
        pairs.append(f"| {a} − {b} | ({ca}) − ({cb}): {ba - bb:+.1f} | {ta} − {tb}: {ta - tb:+d} | "
                     f"{(ta - tb) - (ba - bb):+.2f} |")
    if pairs:
        out += ["", "With no program, between kernels:", "",
                "| kernels | make bench | breakdown | breakdown − bench |", "|---|---:|---:|---:|"] + pairs
    return out


def main():
    args = sys.argv[1:]
    check = bool(args) and args[0] == "--check"
    if check:
        args = args[1:]
    if len(args) != 2:
        die(USAGE)
    doc, resdir = args
    if not os.path.isfile(doc):
        die(f"{doc}: no such document")
    if not os.path.isdir(resdir):
        die(f"{resdir}: no such results directory")
    res = load(resdir)

    def render(what):
        f = what.split(":")
        if f[0] == "totals" and len(f) == 1:
            return totals(res)
        if f[0] == "parts" and len(f) == 1:
            return parts(res)
        if f[0] == "subparts" and len(f) == 2 and f[1] in ("image", "prog_enter_exit"):
            return subparts(res, f[1])
        if f[0] == "bench" and len(f) == 1:
            return bench(res)
        if f[0] == "hypothesis" and len(f) == 1:
            return hypothesis(res)
        if (f[0], len(f)) in (("functions", 2), ("trace", 3)):
            if f[1] not in res:
                die(f"block breakdown:{what}: no results of kernel {f[1]} in {resdir}")
            return functions(res[f[1]]) if f[0] == "functions" else trace(res[f[1]], f[2])
        die(f"unknown block breakdown:{what}")

    with open(doc) as fh:
        text = fh.read()
    try:
        new = rewrite_blocks(text, re.compile(r"^<!-- breakdown:(\S+) -->$"), "<!-- /breakdown -->", render)
    except ValueError as e:
        die(str(e))
    if check:
        if new != text:
            print(f"breakdown-docs: {doc} is not as generated: run scripts/breakdown-docs.py {doc} {resdir}",
                  file=sys.stderr)
            sys.exit(1)
        return
    if new != text:
        with open(doc, "w") as fh:
            fh.write(new)


if __name__ == "__main__":
    main()
