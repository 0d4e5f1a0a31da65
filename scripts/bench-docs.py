#!/usr/bin/python3
"""Put the bench's figures into the documents, from results.csv alone.

Every figure of make bench that a document shows comes from
Documentation/bench/results.csv (written by scripts/bench-report.py)
through this script, so no document can carry a figure of another run:

  bench-docs.py <results.csv> --update <file>...
      rewrites, in place, each block between a line
      "<!-- bench:<table> -->" and the next line "<!-- /bench -->", and
      the figure right after each "<!--@<set>/<config>/<op>/<field>-->"
      (Markdown files: README.md, Documentation/residual-cost.md);
  bench-docs.py <results.csv> --expand <template>
      prints <template> with each "@bench:<table>@" line replaced by the
      table and each inline "@<set>/<config>/<op>/<field>@" by one figure
      (the cover letter: scripts/export-patches.sh runs this);
  bench-docs.py <results.csv> --check <file>...
      exits 1, naming the block, when an --update block is not what
      --update would write;
  bench-docs.py <results.csv> --message <passages>
      a filter for `git filter-branch --msg-filter` on the kernel tree:
      copies a commit message from stdin to stdout with the figures of
      each passage of <passages> that it contains set from results.csv
      (the words and line breaks stay);
  bench-docs.py <results.csv> --check-patches <passages> <patch>...
      exits 1, naming the passage, unless each passage of <passages>,
      expanded, is in exactly one of the patches (whitespace aside).

<passages> (Documentation/bench/patch-figures.txt) holds the sentences
of the patches' commit messages that carry figures, with inline
"@<set>/<config>/<op>/<field>@" where the figures go; passages are
separated by blank lines, "#" lines are comments.

--with <prefix>=<csv> (repeatable) adds the sets of another run, named
"<prefix>-<set>": --with 6.12=Documentation/bench/6.12/results.csv gives
the 6.12 run's sets as 6.12-defconfig and 6.12-distro.

<table> is "<style>:<set>" with style "md" (Markdown, the headline
columns) or "text" (fixed-width plain text, every configuration).
<field> is "ns" (instructions per operation), "delta" (over the set's
base, signed) or "pct" (the same in percent).
"""

import argparse
import functools
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from doc_blocks import rewrite_blocks  # noqa: E402

OP_NAMES = {
    "open_close": "open + close",
    "stat": "stat",
    "pread": "pread (1 byte)",
    "mprotect": "mprotect",
    "mmap_munmap": "mmap + munmap",
    "fork_wait": "fork + wait",
    "socket_close": "socket + close",
    "eventfd": "eventfd write + read",
    "pipe": "pipe write + read",
    "execve": "fork + execve + wait",
    "tcp_connect": "TCP connect + accept",
    "getppid": "getppid",
}
BLOCK_START = re.compile(r"^<!-- bench:(\S+) -->$")
BLOCK_END = "<!-- /bench -->"
# <set>/<config>/<op>/<field>: the four groups figure() takes.
FIGURE_REF = r"([a-z0-9][a-z0-9_.-]*)/([a-z0-9]+)/([a-z_]+)/(ns|delta|pct)"
INLINE = re.compile(rf"@{FIGURE_REF}@")
TABLE_LINE = re.compile(r"^@bench:(\S+)@$")
# A figure as the documents print it: a signed number, " %" for a "pct".
NUMBER = r"[+-]?[0-9]+(?:\.[0-9]+)?"
FIGURE = rf"{NUMBER}(?: %)?"
TAGGED = re.compile(rf"(<!--@{FIGURE_REF}-->)({FIGURE})?")


def die(msg):
    print(f"bench-docs.py: {msg}", file=sys.stderr)
    sys.exit(2)


@functools.lru_cache(maxsize=None)
def read_rows(path):
    """The rows of a results.csv, read once: a base's own run is also
    named with its prefix (scripts/bench-runs.sh)."""
    try:
        with open(path, newline="") as f:
            return tuple(csv.DictReader(f))
    except OSError as e:
        die(f"cannot read {path}: {e.strerror}; run make bench or give the committed Documentation/bench/results.csv")


def load(path, prefix=""):
    """{set: {config: {op: row}}} and the op order, attach rows left out;
    with a prefix, each set is named "<prefix>-<set>"."""
    sets, ops = {}, []
    for row in read_rows(os.path.realpath(path)):
        if row["op"].startswith("attach_detach"):
            continue
        sets.setdefault(prefix + row["set"], {}).setdefault(row["config"], {})[row["op"]] = row
        if row["op"] not in ops:
            ops.append(row["op"])
    if not sets:
        die(f"{path} holds no results")
    return sets, ops


def figure(sets, set_name, config, op, field):
    try:
        row = sets[set_name][config][op]
    except KeyError:
        die(f"no result for set {set_name}, configuration {config}, op {op} in results.csv")
    ns = float(row["ns_per_op"])
    if field == "ns":
        return f"{ns:.1f}"
    # From ns_per_op, as results.md: the CSV's delta is already rounded.
    base = base_of(sets, set_name)
    try:
        base_ns = float(sets[set_name][base][op]["ns_per_op"])
    except KeyError:
        die(f"set {set_name}: its base ({base}) has no result for {op}")
    delta = ns - base_ns
    # -0.0 + 0.0 is +0.0: a delta that rounds to zero shows no sign of its own.
    if field == "delta":
        return f"{round(delta, 1) + 0.0:+.1f}"
    return f"{round(delta / base_ns * 100, 2) + 0.0:+.2f} %"


def base_of(sets, set_name):
    """The set's first configuration (1, d1): the one the others are compared with."""
    return config_ids(sets, set_name)[0]


def config_ids(sets, set_name):
    """The set's configuration ids in number order (1..6, d1..d6)."""
    if set_name not in sets:
        die(f"no set {set_name} in results.csv (sets: {', '.join(sets)})")
    return sorted(sets[set_name], key=lambda c: int(re.sub(r"\D", "", c)))


def table_md(sets, ops, set_name):
    """Headline: base, then 6.1 and the series with bpf and no program, and
    both with the allow-all file_mprotect program, as deltas."""
    ids = config_ids(sets, set_name)
    cfg = sets[set_name]
    base, rest = ids[0], ids[1:5]
    head = ["operation", f"({base}) stock, no `bpf`"]
    head += [f"({c}) {next(iter(cfg[c].values()))['label'].replace('patched', 'series')}" for c in rest]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for op in ops:
        if op not in cfg[base]:
            continue
        cells = [OP_NAMES.get(op, op), figure(sets, set_name, base, op, "ns")]
        cells += [figure(sets, set_name, c, op, "delta") for c in rest]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def table_text(sets, ops, set_name):
    """Every configuration: the base in instructions, the others as deltas."""
    ids = config_ids(sets, set_name)
    cfg = sets[set_name]
    base = ids[0]
    lines = ["  " + f"{'operation':<22}" + "".join(f"{'(' + c + ')':>11}" for c in ids)]
    for op in ops:
        if op not in cfg[base]:
            continue
        cells = [figure(sets, set_name, base, op, "ns")]
        cells += [figure(sets, set_name, c, op, "delta") for c in ids[1:]]
        lines.append("  " + f"{OP_NAMES.get(op, op):<22}" + "".join(f"{x:>11}" for x in cells))
    return lines


def table(sets, ops, spec):
    style, _, set_name = spec.partition(":")
    if style == "md":
        return table_md(sets, ops, set_name)
    if style == "text":
        return table_text(sets, ops, set_name)
    die(f"unknown table style '{style}' in '{spec}' (md or text)")


def updated(sets, ops, text, path):
    try:
        text = rewrite_blocks(text, BLOCK_START, BLOCK_END, lambda spec: table(sets, ops, spec))
    except ValueError as e:
        die(f"{path}: {e}")
    return TAGGED.sub(lambda g: g.group(1) + figure(sets, *g.groups()[1:5]), text)


def expand(sets, ops, text):
    out = []
    for line in text.split("\n"):
        m = TABLE_LINE.match(line)
        if m:
            out += table(sets, ops, m.group(1))
        else:
            out.append(INLINE.sub(lambda g: figure(sets, *g.groups()), line))
    return "\n".join(out)


def passages(path):
    """(label, text) of each passage of a patch-figures file, whitespace
    folded; the label is the "# N/M" comment right before it."""
    try:
        with open(path) as f:
            blocks = re.split(r"\n[ \t]*\n", f.read())
    except OSError as e:
        die(f"cannot read {path}: {e.strerror}")
    out = []
    for block in blocks:
        lines = block.split("\n")
        label = next((x[1:].strip() for x in reversed(lines) if x.startswith("#")), "")
        text = " ".join(" ".join(x for x in lines if not x.startswith("#")).split())
        if text:
            out.append((label, text))
    return out


def passage_re(passage):
    """The passage as a pattern: any whitespace between words, a number
    where it has a reference (one group each, in order; a percentage's
    "%" may be on the next line)."""
    def token(tok):
        parts, pos = [], 0
        for m in INLINE.finditer(tok):
            parts += [re.escape(tok[pos:m.start()]), f"({NUMBER})" + (r"\s+%" if m.group(4) == "pct" else "")]
            pos = m.end()
        return "".join(parts) + re.escape(tok[pos:])
    return re.compile(r"\s+".join(token(t) for t in passage.split(" ")))


def message(sets, ops, spec, text):
    """text with the figures of every passage of spec it holds set; the
    words and line breaks around them stay."""
    for _, passage in passages(spec):
        want = [figure(sets, *m.groups()).removesuffix(" %") for m in INLINE.finditer(passage)]
        out, pos = [], 0
        for m in passage_re(passage).finditer(text):
            for i, fig in enumerate(want, 1):
                out += [text[pos:m.start(i)], fig]
                pos = m.end(i)
        text = "".join(out) + text[pos:]
    return text


def commit_message(path):
    """A patch's commit message (what precedes its first "---" line), or
    a whole file that has none, whitespace folded."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        die(f"cannot read {path}: {e.strerror}")
    return " ".join(re.split(r"^---$", text, maxsplit=1, flags=re.M)[0].split())


def check_patches(sets, ops, spec, patches):
    """1 unless each passage, expanded, is in exactly one message, and in
    the patch its "# N/M" label names (a file named NNNN-*)."""
    texts = {p: commit_message(p) for p in patches}
    bad = 0
    for label, passage in passages(spec):
        want = expand(sets, ops, passage)
        hits = [(p, t.count(want)) for p, t in texts.items() if want in t]
        m = re.fullmatch(r"(\d+)/\d+", label)
        home = f"{int(m.group(1)):04d}-" if m else None
        if sum(n for _, n in hits) == 1 and (home is None or os.path.basename(hits[0][0]).startswith(home)):
            continue
        pat = passage_re(passage)
        found = [g.group(0) for t in texts.values() for g in pat.finditer(t)]
        print(f"bench-docs.py: passage {label or '(no label)'} \"{passage[:50]}...\" wants "
              f"\"{want}\"; found {len(found)} times with other figures or elsewhere: {found[:2]}, "
              f"in {[os.path.basename(p) for p, _ in hits] or 'no patch'}; "
              "run scripts/update-patch-figures.sh build/linux, then make patches", file=sys.stderr)
        bad = 1
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--with", action="append", default=[], metavar="PREFIX=CSV", dest="more")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--update", nargs="+", metavar="FILE")
    mode.add_argument("--check", nargs="+", metavar="FILE")
    mode.add_argument("--expand", metavar="TEMPLATE")
    mode.add_argument("--message", metavar="PASSAGES")
    mode.add_argument("--check-patches", nargs="+", metavar=("PASSAGES", "PATCH"))
    args = ap.parse_args()
    sets, ops = load(args.csv)
    for spec in args.more:
        prefix, _, path = spec.partition("=")
        if not re.fullmatch(r"[a-z0-9][a-z0-9_.-]*", prefix) or not path:
            die(f"--with wants <prefix>=<results.csv>, not '{spec}'")
        more, more_ops = load(path, prefix + "-")
        sets.update(more)
        ops += [op for op in more_ops if op not in ops]
    if args.message:
        sys.stdout.write(message(sets, ops, args.message, sys.stdin.read()))
        return 0
    if args.check_patches:
        if len(args.check_patches) < 2:
            die("--check-patches wants the passages file, then the patches")
        return check_patches(sets, ops, args.check_patches[0], args.check_patches[1:])
    if args.expand:
        with open(args.expand) as f:
            sys.stdout.write(expand(sets, ops, f.read()))
        return 0
    stale = 0
    for path in args.update or args.check:
        with open(path) as f:
            text = f.read()
        new = updated(sets, ops, text, path)
        if new == text:
            continue
        if args.check:
            print(f"bench-docs.py: {path}: tables differ from {args.csv}; run scripts/bench-docs.py {args.csv} --update {path}",
                  file=sys.stderr)
            stale = 1
        else:
            with open(path, "w") as f:
                f.write(new)
            print(f"bench-docs.py: updated {path}", file=sys.stderr)
    return stale


if __name__ == "__main__":
    sys.exit(main())
