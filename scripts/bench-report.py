#!/usr/bin/python3
"""Turn a run of scripts/bench.sh into results.csv, results.md and results.svg.

usage: bench-report.py [-o OUTDIR] [--against OTHER_DIR]... [--beside OTHER_DIR]... RUNDIR

RUNDIR is scripts/bench.sh's output directory; two files of it are read,
and nothing else:

raw.txt, one line per line the guest printed:
    <config> <boot> secs=<host s> bench env kernel=<uname -r> lsm=<active>
        clocksource=<cs> cpus=<n> ...
    <config> <boot> secs=<host s> bench op=<op> iters=<n> rounds=<r>
        ns_per_op=<median> min=<min over the rounds> ... spread_pct=<%>
        [round_ns=<each round, in order>] (kept for analysis, not read)
    <config> <boot> secs=<host s> bench op=attach_detach_<hook> iters=<n>
        rounds=<r> ns_per_op=<min over the rounds> cpu_ns_per_op=<ns> ...
  <config> is a configuration id of meta.txt ("1".."6", "d1".."d6").

meta.txt, one record a line: the record type, then TAB-separated
key=value fields (values hold no TAB); the order of the records is the
order of presentation:
    run     date qemu qemu_opts kernel_cmdline rounds boots scale host_secs
            [jobs]
    kernel  name image config_sha256_12 text data bss same_as [tree]
    set     name title base
    config  id set kernel lsm program attach_cycles label
  program is "none" or the hook of the allow-all program; base is the
  configuration of the set the others are compared with.

A boot's value of an lsm_bench operation is its min= (the minimum over
the rounds), and a result of a (configuration, operation) the minimum
over the boots, so the minimum over every round of the configuration;
the attach_detach_* operations of bench_attach (ns_per_op, each boot's
minimum over its rounds) are given as the median over the boots instead.

Written into RUNDIR (or OUTDIR):
  results.csv  one row per (configuration, operation), the attach_detach_*
               rows last; delta_vs_base and pct_vs_base against the set's
               base when it was run
  results.md   the method, the kernels, then per set its configurations,
               instructions per operation, overhead over the base,
               repeatability and attach + detach cost; per --beside
               (another architecture's run), its overhead tables; per
               --against, the relative difference of each result from
               OTHER_DIR's
  results.svg  per set whose base was run, the overhead of each other
               configuration over it per operation (matplotlib; the same
               input gives the same file)
"""

import argparse
import csv
import os
import re
import statistics
import sys
from dataclasses import dataclass, field

try:
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter
except ImportError:
    print(f"bench-report.py: {sys.executable} has no matplotlib; install python3-matplotlib "
          "(apt-get install python3-matplotlib) or run the script with the python3 that has it",
          file=sys.stderr)
    sys.exit(2)

PROG = "bench-report.py"
ATTACH = "attach_detach_"
META_FIELDS = {
    "run": ("date", "qemu", "qemu_opts", "kernel_cmdline", "rounds", "boots", "scale", "host_secs"),
    "kernel": ("name", "image", "config_sha256_12", "text", "data", "bss", "same_as"),
    "set": ("name", "title", "base"),
    "config": ("id", "set", "kernel", "lsm", "program", "attach_cycles", "label"),
}
CSV_HEADER = ("set,config,label,kernel,image,uname,config_sha256_12,lsm,program,op,iters,rounds,"
              "boots,ns_per_op,boot_min,boot_max,boot_spread_pct,round_spread_pct_max,boot_values,"
              "cpu_ns_per_op,delta_vs_base,pct_vs_base").split(",")
# Bar colours by a configuration's place among the other configurations
# of its set: (2) grey, (3) blue, (4) red, (5) green, (6) orange.
COLOURS = ("#9e9e9e", "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
           "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22")
BAR_IN = 0.13     # inches of height per bar


def die(msg):
    print(f"{PROG}: {msg}", file=sys.stderr)
    sys.exit(2)


@dataclass
class Series:
    """One (configuration, operation): its per-boot values, raw.txt order."""
    iters: int = 0
    rounds: int = 0
    values: list = field(default_factory=list)
    cpu: list = field(default_factory=list)
    round_spread: float = 0.0

    @property
    def ns(self):
        return min(self.values)

    @property
    def boot_spread(self):
        return (max(self.values) - self.ns) / self.ns * 100


@dataclass
class Measured:
    """What the boots of one configuration printed."""
    secs: int = 0
    uname: str = ""
    active: str = ""
    cpus: str = ""
    clocksources: list = field(default_factory=list)
    ops: dict = field(default_factory=dict)
    attach: dict = field(default_factory=dict)

    @property
    def clocksource(self):
        return "+".join(self.clocksources)


@dataclass
class Run:
    """One run directory: meta.txt's records and raw.txt's measurements."""
    path: str
    run: dict
    kernels: dict
    sets: dict
    configs: dict
    measured: dict
    ops: list

    def run_in(self, set_name):
        """The set's configurations that were run, in meta.txt order."""
        return [c for c, rec in self.configs.items() if rec["set"] == set_name and c in self.measured]

    def kernels_of(self, set_name):
        """The set's kernels in the order its configurations name them."""
        names = [rec["kernel"] for rec in self.configs.values() if rec["set"] == set_name]
        return list(dict.fromkeys(names))

    def base_of(self, set_name):
        """The set's base if it and another configuration were run."""
        base, ran = self.sets[set_name]["base"], self.run_in(set_name)
        return base if base in ran and len(ran) > 1 else None

    def set_ops(self, ids):
        return [op for op in self.ops if any(op in self.measured[c].ops for c in ids)]


def read_lines(path, what):
    try:
        with open(path) as f:
            return f.read().splitlines()
    except OSError as e:
        die(f"cannot read {path} ({e.strerror}); give the output directory of a {what}")


def meta_record(path, n, line):
    kind, *fields = line.split("\t")
    if kind not in META_FIELDS:
        die(f"{path}:{n}: unknown record type '{kind}' (want {', '.join(META_FIELDS)}); fix or rewrite meta.txt")
    if not all("=" in f for f in fields):
        die(f"{path}:{n}: a field without '=' in '{line}'; fields are TAB-separated key=value")
    rec = dict(f.split("=", 1) for f in fields)
    missing = [k for k in META_FIELDS[kind] if k not in rec]
    if missing:
        die(f"{path}:{n}: {kind} record lacks {', '.join(missing)}; rewrite meta.txt with scripts/bench.sh")
    return kind, rec


def read_meta(path):
    meta = {"run": {}, "kernel": {}, "set": {}, "config": {}}
    for n, line in enumerate(read_lines(path, "scripts/bench.sh run"), 1):
        if line.strip():
            kind, rec = meta_record(path, n, line)
            if kind == "run":
                meta["run"] = rec
            else:
                meta[kind][rec[META_FIELDS[kind][0]]] = rec
    if not meta["run"]:
        die(f"{path}: no run record; rewrite meta.txt with scripts/bench.sh")
    for c, rec in meta["config"].items():
        if rec["set"] not in meta["set"] or rec["kernel"] not in meta["kernel"]:
            die(f"{path}: configuration {c} names set '{rec['set']}' or kernel '{rec['kernel']}' "
                "that has no record; add it")
    return meta


def add_env(m, secs, kv):
    m.secs += secs
    m.uname, m.active, m.cpus = kv["kernel"], kv["lsm"], kv["cpus"]
    if kv["clocksource"] not in m.clocksources:
        m.clocksources.append(kv["clocksource"])


def add_op(run, m, kv):
    op = kv["op"]
    table = m.attach if op.startswith(ATTACH) else m.ops
    s = table.setdefault(op, Series())
    s.iters, s.rounds = int(kv["iters"]), int(kv["rounds"])
    if op.startswith(ATTACH):
        s.values.append(float(kv["ns_per_op"]))
        s.cpu.append(float(kv["cpu_ns_per_op"]))
        return
    s.values.append(float(kv["min"]))
    s.round_spread = max(s.round_spread, float(kv["spread_pct"]))
    if op not in run.ops:
        run.ops.append(op)


def add_raw_line(run, path, n, line):
    f = line.split()
    if len(f) < 5 or f[3] != "bench" or not f[2].startswith("secs=") or not f[1].isdigit():
        die(f"{path}:{n}: cannot parse '{line}'; want '<config> <boot> secs=<s> bench env|op=<op> k=v...'")
    if f[0] not in run.configs:
        die(f"{path}:{n}: configuration '{f[0]}' has no config record in meta.txt; add one or drop its lines")
    kv = dict(x.split("=", 1) for x in f[4:] if "=" in x)
    m = run.measured.setdefault(f[0], Measured())
    try:
        if f[4] == "env":
            add_env(m, int(f[2][5:]), kv)
        else:
            add_op(run, m, kv)
    except KeyError as e:
        die(f"{path}:{n}: no {e.args[0]}= in '{line}'; a line of another lsm_bench? rerun scripts/bench.sh")
    except ValueError:
        die(f"{path}:{n}: a value that is not a number in '{line}'; rerun scripts/bench.sh")


def load(path):
    meta = read_meta(os.path.join(path, "meta.txt"))
    run = Run(path, meta["run"], meta["kernel"], meta["set"], meta["config"], {}, [])
    raw = os.path.join(path, "raw.txt")
    for n, line in enumerate(read_lines(raw, "scripts/bench.sh run"), 1):
        if line.strip():
            add_raw_line(run, raw, n, line)
    if not any(m.ops for m in run.measured.values()):
        die(f"{raw}: no bench op= line; rerun scripts/bench.sh")
    return run


# results.csv

def row_head(run, c):
    rec = run.configs[c]
    k = run.kernels[rec["kernel"]]
    return [rec["set"], c, rec["label"], rec["kernel"], k["image"], run.measured[c].uname,
            k["config_sha256_12"], rec["lsm"]]


def program_count(program):
    """A configuration's program field (bench.sh's <hook> or <n>*<hook>):
    the number of allow-all programs and their hook."""
    m = re.match(r"^(\d+)\*(.+)$", program)
    return (int(m.group(1)), m.group(2)) if m else (1, program)


def program_csv(program):
    """As results.csv names them: lsm/<hook>, or <n>*lsm/<hook>."""
    n, hook = program_count(program)
    return f"{n}*lsm/{hook}" if n > 1 else "lsm/" + hook


def program_md(program):
    n, hook = program_count(program)
    return f"{n} allow-all lsm/{hook} programs" if n > 1 else "allow-all lsm/" + hook


def op_row(run, c, op, base):
    s = run.measured[c].ops[op]
    delta = pct = ""
    if base and c != base and op in run.measured[base].ops:
        b = run.measured[base].ops[op].ns
        delta, pct = f"{s.ns - b:.2f}", f"{(s.ns - b) / b * 100:.3f}"
    program = run.configs[c]["program"]
    return row_head(run, c) + [
        "" if program == "none" else program_csv(program), op, s.iters, s.rounds, len(s.values),
        f"{s.ns:.2f}", f"{s.ns:.2f}", f"{max(s.values):.2f}", f"{s.boot_spread:.3f}",
        f"{s.round_spread:.3f}", ";".join(f"{v:.2f}" for v in s.values), "", delta, pct]


def attach_row(run, c, op):
    s = run.measured[c].attach[op]
    med, lo, hi = statistics.median(s.values), min(s.values), max(s.values)
    return row_head(run, c) + [
        "lsm/" + op[len(ATTACH):], op, s.iters, s.rounds, len(s.values),
        f"{med:.2f}", f"{lo:.2f}", f"{hi:.2f}", f"{(hi - lo) / med * 100:.3f}", "",
        ";".join(f"{v:.2f}" for v in s.values), f"{statistics.median(s.cpu):.2f}", "", ""]


def write_csv(run, path):
    ran = [c for c in run.configs if c in run.measured]
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(CSV_HEADER)
        for c in ran:
            base = run.base_of(run.configs[c]["set"])
            w.writerows(op_row(run, c, op, base) for op in run.ops if op in run.measured[c].ops)
        for c in ran:
            w.writerows(attach_row(run, c, op) for op in run.measured[c].attach)


# results.md

def paragraphs(*parts):
    """The non-empty parts (lists of lines), a blank line between."""
    out = []
    for part in parts:
        if part:
            out += ([""] if out else []) + part
    return out


def md_table(head, right, rows):
    """A Markdown table: the first len(head) - right columns left-aligned."""
    rule = "|" + "---|" * (len(head) - right) + "---:|" * right
    return [md_row(head), rule] + [md_row(r) for r in rows]


def md_row(cells):
    return "|" + "".join(f" {x} |" if x != "" else " |" for x in cells)


def md_method(run):
    r = run.run
    n = len(run.measured)
    jobs = f", {r['jobs']} guests at once" if r.get("jobs") else ""
    lines = [
        f"# BPF LSM hook overhead: stock {r.get('base', '6.1')} against the series", "",
        f"Measured by `scripts/bench.sh` on {r['date']}; {n} configurations × {r['boots']} boots in "
        f"{r['host_secs']} s of host time{jobs}; written up by `scripts/bench-report.py`.", "",
        f"Instrument: {r['qemu']}, TCG, `{r['qemu_opts']}`, kernel parameters `{r['kernel_cmdline']}`.",
        "Under icount with shift=0 guest time advances 1 ns per executed guest instruction, so guest",
        "`CLOCK_MONOTONIC` ns per operation are instructions per operation (the loop included).",
        f"`lsm_bench`: {r['rounds']} rounds per operation at {r['scale']} % of its default iterations, "
        "each round in a",
        "fresh exec (set-up, warm-up, timed loop); a boot's value is the minimum over its rounds,",
        f"a result the minimum over {r['boots']} boot(s) of the configuration. Why the minimum: some",
        "operations run in one of two regimes per round (socket + close on Debian's config: two levels",
        "about 100 to 140 instructions apart; the cheaper rounds run more RCU softirqs in the loop),",
        "in proportions that change per exec and per boot, so a median flips between them; every",
        "configuration reaches the lower one in every run, and the minimum is what repeated runs",
        "reproduce (the boot values of every result are in results.csv, every round in raw.txt)."]
    notes = [f"**Note:** {k['same_as']} and {name} were the same image: every \"{name}\" "
             "configuration measured that one kernel." for name, k in run.kernels.items() if k["same_as"]]
    return paragraphs(lines, *([n] for n in notes))


def kernel_row(run, name):
    k = run.kernels[name]
    unames = [m.uname for c, m in run.measured.items() if run.configs[c]["kernel"] == name and m.uname]
    return [name, f"`{k['image']}`", unames[-1] if unames else "(not booted)",
            k.get("tree", "(not recorded)"), k["config_sha256_12"], k["text"], k["data"], k["bss"]]


def size_delta_rows(run, name):
    """The 'patched − stock' rows of the sets whose pair ends with kernel name."""
    order = list(run.kernels)
    rows = []
    for s in run.sets:
        pair = run.kernels_of(s)
        if len(pair) != 2 or max(pair, key=order.index) != name:
            continue
        a, b = (run.kernels[k] for k in pair)
        if all((a[f] + b[f]).isdigit() for f in ("text", "data", "bss")):
            rows.append([f"{pair[1]} − {pair[0]}", "", "", "", ""] +
                        [f"{int(b[f]) - int(a[f]):+d}" for f in ("text", "data", "bss")])
    return rows


def md_kernels(run):
    rows = []
    for name in run.kernels:
        rows += [kernel_row(run, name)] + size_delta_rows(run, name)
    head = ["kernel", "bzImage", "uname -r (guest)", "source tree", ".config sha256", "vmlinux text", "data", "bss"]
    return ["## Kernels", ""] + md_table(head, 3, rows)


def expected_clocksource(image):
    """The clocksource icount drives on the image's architecture (arm64: the generic timer)."""
    return "arch_sys_counter" if "/arch/arm64/" in image else "tsc"


def md_configs(run, ids):
    rows, warn = [], []
    for c in ids:
        rec, m = run.configs[c], run.measured[c]
        program = "-" if rec["program"] == "none" else program_md(rec["program"])
        rows.append([f"({c})", rec["label"], rec["kernel"], rec["lsm"], m.active, program,
                     m.clocksource, m.cpus, m.secs])
        want = expected_clocksource(run.kernels[rec["kernel"]]["image"])
        if m.clocksource != want:
            warn.append(f"**Warning:** ({c}) ran on clocksource {m.clocksource}, not {want}.")
    head = ["#", "configuration", "kernel", "lsm=", "active LSMs (guest)", "program", "clocksource",
            "vCPUs", "host s"]
    return paragraphs(["### Configurations", ""] + md_table(head, 1, rows), warn)


def cell(run, c, op, fmt):
    s = run.measured[c].ops.get(op)
    return fmt(s) if s else "-"


def md_instructions(run, ids):
    rows = [[op] + [cell(run, c, op, lambda s: f"{s.ns:.1f}") for c in ids] for op in run.set_ops(ids)]
    return ["### Instructions per operation", ""] + md_table(["operation"] + [f"({c})" for c in ids],
                                                            len(ids), rows)


def overhead(run, c, base, op):
    """Instructions over the base and the same in percent, or None."""
    ops = run.measured[c].ops
    if op not in ops or op not in run.measured[base].ops:
        return None
    b = run.measured[base].ops[op].ns
    return ops[op].ns - b, (ops[op].ns - b) / b * 100


def md_overhead(run, set_name, ids):
    base = run.base_of(set_name)
    if not base:
        what = "was not run" if run.sets[set_name]["base"] not in ids else "was the only one run"
        return [f"(Configuration ({run.sets[set_name]['base']}) {what}: no overhead table.)"]
    others = [c for c in ids if c != base]
    rows = []
    for op in run.set_ops(ids):
        cells = [overhead(run, c, base, op) for c in others]
        rows.append([op] + [f"{d:+.1f} ({p:+.2f} %)" if d is not None else "-"
                            for d, p in (x or (None, None) for x in cells)])
    return ([f"### Overhead over ({base}), instructions per operation (percent)", ""] +
            md_table(["operation"] + [f"({c}) − ({base})" for c in others], len(others), rows))


def md_repeatability(run, ids):
    rows = []
    for op in run.set_ops(ids):
        iters = next(run.measured[c].ops[op].iters for c in ids if op in run.measured[c].ops)
        rows.append([op, iters] + [cell(run, c, op, lambda s: f"{s.round_spread:.3f} / {s.boot_spread:.3f}")
                                   for c in ids])
    return (["### Repeatability", "",
             "Per cell: largest spread (max − min) / min over the rounds of one boot, then",
             "spread (max − min) / min of the per-boot values over the boots, in percent.", ""] +
            md_table(["operation", "iterations"] + [f"({c})" for c in ids], len(ids) + 1, rows))


def attach_cells(s):
    """Median (min–max) of guest ns and of CPU ns over the boots."""
    return [f"{statistics.median(v):.0f} ({min(v):.0f}–{max(v):.0f})" for v in (s.values, s.cpu)]


def attach_delta_row(run, ids, op):
    """The no-program configurations with bpf active, one per kernel: the
    second's cost minus the first's, if there are two."""
    pick = {}
    for c in ids:
        rec = run.configs[c]
        if (op in run.measured[c].attach and rec["program"] == "none" and
                "bpf" in rec["lsm"].split(",")):
            pick.setdefault(rec["kernel"], c)
    if len(pick) != 2:
        return []
    (k1, c1), (k2, c2) = pick.items()
    a, b = run.measured[c1].attach[op], run.measured[c2].attach[op]
    ns = statistics.median(b.values) - statistics.median(a.values)
    cpu1, cpu2 = statistics.median(a.cpu), statistics.median(b.cpu)
    return [[f"({c2}) − ({c1})", f"{k2} − {k1}", "", f"{ns:+.0f}",
             f"{cpu2 - cpu1:+.0f} ({(cpu2 - cpu1) / cpu1 * 100:+.2f} %)"]]


def md_attach(run, ids):
    ops = list(dict.fromkeys(op for c in ids for op in run.measured[c].attach))
    parts = []
    for op in ops:
        rows = [[f"({c})", run.configs[c]["kernel"], f"{s.iters} × {s.rounds} × {len(s.values)}"] +
                attach_cells(s) for c in ids if (s := run.measured[c].attach.get(op))]
        head = ["#", "kernel", "cycles × rounds × boots", "guest ns / cycle",
                "CPU ns (≈ instructions) / cycle"]
        parts.append([f"### Attach + detach of the {op[len(ATTACH):]} program", "",
                  "`bench_attach --attach-cycles N`: the program is loaded once, then rounds of N",
                  "`bpf_program__attach()` + `bpf_link__destroy()`; per boot the minimum over the rounds,",
                  "then the median over the boots (min–max in brackets). Guest ns include the time the task",
                  "sleeps (grace periods: idle time QEMU skips, not instructions); CPU ns are the",
                  "task's own CPU time, i.e. its instructions, kernel work done in its context included.", ""] +
                     md_table(head, 2, rows + attach_delta_row(run, ids, op)))
    return paragraphs(*parts)


def md_set(run, set_name, last_plot):
    rec, ids = run.sets[set_name], run.run_in(set_name)
    head = [f"## Set {set_name}", "", f"Kernels built with: {rec['title']}."]
    if not ids:
        return paragraphs(head, ["(No configuration of this set was run.)"])
    plot = ["![overhead over the base per operation, a panel per set](results.svg)"]
    return paragraphs(head, md_configs(run, ids), md_instructions(run, ids), md_overhead(run, set_name, ids),
                      plot if set_name == last_plot else [], md_repeatability(run, ids), md_attach(run, ids))


def agreement(run, other):
    """(set, config, op, here, there, relative difference %) of every
    result both runs have."""
    out = []
    for c, rec in run.configs.items():
        if c not in run.measured or c not in other.measured:
            continue
        for op in run.ops:
            a, b = run.measured[c].ops.get(op), other.measured[c].ops.get(op)
            if a and b:
                out.append((rec["set"], c, op, a.ns, b.ns, (a.ns - b.ns) / b.ns * 100))
    return out


def md_agreement(run, other, diffs):
    lines = [f"## Agreement with `{other.path}`", "",
             f"Against `{other.path}` (run of {other.run['date']}): the relative difference of each",
             "result, (this − that) / that, in percent."]
    if not diffs:
        return paragraphs(lines, ["(No configuration and operation in common.)"])
    tables = []
    for set_name in dict.fromkeys(d[0] for d in diffs):
        mine = [d for d in diffs if d[0] == set_name]
        ids = list(dict.fromkeys(d[1] for d in mine))
        by = {(d[1], d[2]): d[5] for d in mine}
        ops = list(dict.fromkeys(d[2] for d in mine))
        rows = [[op] + [f"{by[c, op]:+.3f} %" if (c, op) in by else "-" for c in ids] for op in ops]
        tables.append([f"Set {set_name}:", ""] + md_table(["operation"] + [f"({c})" for c in ids], len(ids), rows))
    return paragraphs(lines, *tables, [f"Worst: {worst_text(diffs)}."])


def worst_text(diffs):
    _, c, op, here, there, pct = max(diffs, key=lambda d: abs(d[5]))
    return f"({c}) {op}, {pct:+.3f} % ({here:.2f} here, {there:.2f} there)"


def md_beside(other, link):
    """The overhead tables of another run (another architecture's) and where
    the rest of it is."""
    r = other.run
    lines = [f"## Beside: `{link}`", "",
             f"Another run, of {r['date']}: {r['qemu']}, TCG, `{r['qemu_opts']}`; its kernels,",
             f"configurations and every figure are in [its results.md]({link}/results.md)."]
    tables = []
    for set_name in other.sets:
        ids = other.run_in(set_name)
        tables.append([f"Set {set_name}: {other.sets[set_name]['title']}.", ""] +
                      [f"({c}) {other.configs[c]['label']}" + ("," if i < len(ids) - 1 else ".")
                       for i, c in enumerate(ids)] + [""] + md_overhead(other, set_name, ids))
    return paragraphs(lines, *tables)


def write_md(run, path, plotted, others, beside):
    """others: (run, diffs) of each --against run; beside: (run, link) of
    each --beside run."""
    last_plot = plotted[-1] if plotted else None
    lines = paragraphs(md_method(run), md_kernels(run), *(md_set(run, s, last_plot) for s in run.sets),
                       *(md_beside(o, link) for o, link in beside),
                       *(md_agreement(run, o, d) for o, d in others))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


# results.svg

def panel_ops(run, set_name):
    return [op for op in run.ops if op in run.measured[run.base_of(set_name)].ops]


def panel(ax, run, set_name):
    """Horizontal bars: per operation, per configuration, % over the base."""
    base = run.base_of(set_name)
    all_ids = [c for c, rec in run.configs.items() if rec["set"] == set_name and c != base]
    others = [c for c in run.run_in(set_name) if c != base]
    ops = panel_ops(run, set_name)
    pitch = len(others) + 1
    pcts = [0.0]
    for j, c in enumerate(others):
        ys, deltas = [], []
        for i, op in enumerate(ops):
            x = overhead(run, c, base, op)
            if x:
                ys.append(i * pitch + j)
                deltas.append(x)
        bars = ax.barh(ys, [p for _, p in deltas], height=0.85,
                       color=COLOURS[all_ids.index(c) % len(COLOURS)],
                       label=f"({c}) {run.configs[c]['label']}")
        ax.bar_label(bars, labels=[f"{d:+.0f}" for d, _ in deltas], padding=2, fontsize=7)
        pcts += [p for _, p in deltas]
    ax.set_yticks([i * pitch + (len(others) - 1) / 2 for i in range(len(ops))],
                  [f"{op}\n({base}): {run.measured[base].ops[op].ns:.0f}" for op in ops], fontsize=8)
    ax.set_ylim(len(ops) * pitch - 1, -1)
    lo, hi = min(pcts), max(pcts)
    pad = (hi - lo or 1) * 0.12
    ax.set_xlim(lo - pad if lo < 0 else 0, hi + pad)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:+g}%"))
    ax.grid(axis="x", color="#dddddd")
    ax.set_axisbelow(True)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_title(f"{set_name}: {run.sets[set_name]['title']}", fontsize=10, loc="left")
    ax.set_xlabel(f"% over ({base}) {run.configs[base]['label']}", fontsize=9)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8, frameon=False)


def figure(run, sets):
    """A panel per set, stacked, each as high as its bars need."""
    heights = [len(panel_ops(run, s)) * len(run.run_in(s)) * BAR_IN + 1.2 for s in sets]
    fig = Figure(figsize=(11, sum(heights) + 0.8), layout="constrained")
    axes = fig.subplots(len(sets), 1, squeeze=False, gridspec_kw={"height_ratios": heights})[:, 0]
    for ax, s in zip(axes, sets):
        panel(ax, run, s)
    r = run.run
    qemu = r["qemu"].replace("QEMU emulator version ", "QEMU ").split(" (")[0]
    fig.suptitle("Overhead over the base configuration of each set, in % of its instructions per operation",
                 fontsize=12, fontweight="bold")
    fig.supxlabel(f"bar labels: instructions per operation over the base; minimum of {r['boots']} boot(s); "
                  f"{qemu} TCG {r['qemu_opts']}", fontsize=8, color="#555555")
    return fig


def write_svg(run, path, sets):
    with matplotlib.rc_context({"svg.hashsalt": "bench-report", "font.size": 9}):
        figure(run, sets).savefig(path, format="svg", metadata={"Date": None})


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rundir", help="scripts/bench.sh's output directory (raw.txt, meta.txt)")
    ap.add_argument("-o", dest="outdir", help="where the results go (default: RUNDIR)")
    ap.add_argument("--against", metavar="OTHER_DIR", action="append", default=[],
                    help="another run's directory to compare with (repeatable)")
    ap.add_argument("--beside", metavar="OTHER_DIR", action="append", default=[],
                    help="another run, of another architecture, whose overhead tables results.md "
                         "shows after this run's (repeatable)")
    args = ap.parse_args()
    run = load(args.rundir)
    others = [(o, agreement(run, o)) for o in map(load, args.against)]
    out = args.outdir or args.rundir
    os.makedirs(out, exist_ok=True)
    # Links relative to RUNDIR, where results.md is meant to stay.
    beside = [(load(d), os.path.relpath(d, args.rundir)) for d in args.beside]
    plotted = [s for s in run.sets if run.base_of(s)]
    write_csv(run, os.path.join(out, "results.csv"))
    write_md(run, os.path.join(out, "results.md"), plotted, others, beside)
    svg = os.path.join(out, "results.svg")
    if plotted:
        write_svg(run, svg, plotted)
    elif os.path.exists(svg):
        os.remove(svg)
    written = "results.csv, results.md" + (", results.svg" if plotted else " (no base run: no results.svg)")
    print(f"{PROG}: {out}/{written}", file=sys.stderr)
    for o, diffs in others:
        worst = worst_text(diffs) if diffs else "no result in common"
        print(f"{PROG}: against {o.path}: worst {worst}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
