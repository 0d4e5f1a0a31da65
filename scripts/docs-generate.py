#!/usr/bin/python3
"""Put the behaviour-change table and the recorded test runs into the documents.

Two sources, each the only place its facts are written:
  Documentation/behaviour-changes.md   the table of behaviour changes
  Documentation/runs/<name>.txt        "key: value" records of test runs
                                       (scripts/record-run.py writes them)

  docs-generate.py --update FILE...    rewrite, in place, each block between
      "<!-- generated:<style> -->" and "<!-- /generated -->" and the value
      after each "<!--@run:<name>/<key>-->" (Markdown: README.md);
  docs-generate.py --check FILE...     exit 1, naming the file, when --update
      would change it;
  docs-generate.py --expand TEMPLATE   print TEMPLATE with each
      "@generated:<style>@" line replaced and each "@run:<name>/<key>@"
      filled (the cover letter; scripts/export-patches.sh runs it);
  docs-generate.py --rst FILE --update|--check
      the same for the "Behaviour changes from 6.1" section of
      Documentation/bpf/prog_lsm.rst.
  --base 6.12: the table of the 6.12 series,
      Documentation/behaviour-changes-6.12.md, and its section "Behaviour
      changes from 6.12".

<style>: "behaviour" (the table, without its release-note column), "release-notes"
(a Markdown list of the changes marked as such), "behaviour-text" (a plain-text list
for the cover letter), "runs" (a Markdown table of the recorded runs, each
said to be of the current series or of an earlier one, by the checksum
of the code the series changes: a change of documents only keeps a run
current), "patches" and "patches-6.12" (a
Markdown table of the 6.1 or the 6.12 series' patches and their subjects).
"""

import argparse
import email
import email.policy
import os
import re
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from doc_blocks import rewrite_blocks  # noqa: E402
from series_code import SERIES, code_checksum, series_names  # noqa: E402

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
# One table per base (--base).
TABLES = {"6.1": "behaviour-changes.md", "6.12": "behaviour-changes-6.12.md"}
RUNS = os.path.join(ROOT, "Documentation", "runs")
COLUMNS = ["Change", "Patches", "Detect", "Adapt", "Release note"]
BLOCK_START = re.compile(r"^<!-- generated:(\S+) -->$")
BLOCK_END = "<!-- /generated -->"
TEMPLATE_LINE = re.compile(r"^@generated:(\S+)@$")
RUN_REF = r"run:([a-z0-9.-]+)/([a-z_]+)"
RUN_TAGGED = re.compile(rf"(<!--@{RUN_REF}-->)([0-9A-Za-z.+-]*)")
RUN_INLINE = re.compile(rf"@{RUN_REF}@")


def die(msg):
    print(f"docs-generate.py: {msg}", file=sys.stderr)
    sys.exit(2)


def rows(path):
    """The rows of the table at path as dicts of COLUMNS ($KRSI_BEHAVIOUR_TABLE: another
    copy of the table, for the harness's test of this check)."""
    table = os.environ.get("KRSI_BEHAVIOUR_TABLE", path)
    try:
        with open(table) as f:
            lines = [x.rstrip("\n") for x in f if x.startswith("|")]
    except OSError as e:
        die(f"cannot read {table}: {e.strerror}")
    cells = [[c.strip() for c in x.strip("|").split(" | ")] for x in lines]
    if not cells or cells[0] != COLUMNS:
        die(f"{table}: the header must be | {' | '.join(COLUMNS)} |")
    out = []
    for n, row in enumerate(cells[2:], 1):
        if len(row) != len(COLUMNS) or row[4] not in ("yes", "no") or not all(row):
            die(f"{table}: row {n} needs {len(COLUMNS)} non-empty cells, the last yes or no")
        out.append(dict(zip(COLUMNS, row)))
    return out


def wrap(text, width, first, rest):
    """textwrap that never breaks inside a `code` span."""
    protected = re.sub(r"`[^`]*`", lambda m: m.group(0).replace(" ", "\0"), text)
    lines = textwrap.wrap(protected, width, initial_indent=first, subsequent_indent=rest,
                          break_long_words=False, break_on_hyphens=False)
    return [x.replace("\0", " ") for x in lines]


def clause(cell):
    """A cell as the clause after "Detect:" or "Adapt:" in running text."""
    return cell[0].lower() + cell[1:] if cell[:2].istitle() else cell


def patches_label(cell):
    nums = [n.strip() for n in cell.split(",")]
    # \0: a space textwrap must not break at (wrap() restores it).
    return ("patch\0" if len(nums) == 1 else "patches\0") + ",\0".join(nums)


def render(style, table):
    if style == "behaviour":
        lines = ["| Change | Patch | Detect | Adapt |", "|---|---|---|---|"]
        lines += [f"| {r['Change']} | {r['Patches']} | {r['Detect']} | {r['Adapt']} |" for r in table]
        return lines
    if style == "release-notes":
        return [f"- {r['Change']} Detect: {clause(r['Detect'])} Adapt: {clause(r['Adapt'])}"
                for r in table if r["Release note"] == "yes"]
    if style == "patches":
        return patches_table("6.1")
    if style == "patches-6.12":
        return patches_table("6.12")
    if style == "runs":
        return runs_table()
    if style == "behaviour-text":
        lines = []
        for r in table:
            plain = f"{r['Change']} ({patches_label(r['Patches'])})".replace("`", "")
            lines += wrap(plain, 72, "- ", "  ")
        return lines
    die(f"unknown style '{style}' (behaviour, release-notes, behaviour-text, runs, patches or patches-6.12)")


def rst_section(table):
    """The body of prog_lsm.rst's section, between its underline and the
    next section's title: a blank line, the list, a blank line."""
    lines = [""]
    for r in table:
        text = f"{r['Change']} Detect: {clause(r['Detect'])} Adapt: {clause(r['Adapt'])}"
        text = re.sub(r"`([^`]*)`", r"``\1``", text)
        lines += wrap(text, 76, "* ", "  ")
    return lines + [""]


def record(name):
    path = os.path.join(RUNS, f"{name}.txt")
    try:
        with open(path) as f:
            return dict(x.rstrip("\n").split(": ", 1) for x in f if ": " in x and not x.startswith("#"))
    except OSError as e:
        die(f"cannot read {path}: {e.strerror}; scripts/record-run.py writes it")


def runs_table():
    """Every recorded run, by name (make check's first)."""
    current = {}
    for base, (series, patches) in SERIES.items():
        with open(os.path.join(ROOT, series)) as f:
            current[base], _ = code_checksum(
                f.read(), lambda n, d=patches: open(os.path.join(ROOT, d, n)).read())
    names = sorted(f[:-4] for f in os.listdir(RUNS) if f.endswith(".txt"))
    lines = ["| command | result | boots | wall time | `build/` after | run on |",
             "|---|---|---|---|---|---|"]
    for n in names:
        r = record(n)
        base = r.get("base", "6.1")
        series = f"this {base} series" if r["series"] == current[base] else \
            f"an earlier {base} series ({r['patches']} patches)"
        wall = f"{r['minutes']} min" if "minutes" in r else "not recorded"
        disk = f"{r['build_gib']} GiB" if "build_gib" in r else "not recorded"
        note = f"; {r['note']}" if "note" in r else ""
        lines.append(f"| `{r['command']}` | {r['passed']} passed, {r['failed']} failed, "
                     f"{r['skipped']} skipped | {r['boots']} | {wall} | {disk} | "
                     f"{r['date']}, {r['commit']}, {series}{note} |")
    return lines


def patches_table(base):
    """One line per patch of the base's series: its number and subject."""
    series, patches = SERIES[base]
    lines = ["| patch | subject |", "|---:|---|"]
    with open(os.path.join(ROOT, series)) as f:
        names = series_names(f.read())
    for n, name in enumerate(names, 1):
        with open(os.path.join(ROOT, patches, name), "rb") as f:
            msg = email.message_from_binary_file(f, policy=email.policy.default)
        subject = re.sub(r"^\[PATCH[^]]*\] ", "", " ".join(str(msg["Subject"]).split()))
        lines.append(f"| {n} | [{subject}]({patches}/{name}) |")
    return lines


def run_value(name, key):
    rec = record(name)
    if key not in rec:
        die(f"Documentation/runs/{name}.txt has no '{key}' (keys: {', '.join(rec)})")
    return rec[key]


def updated(text, path, table):
    try:
        text = rewrite_blocks(text, BLOCK_START, BLOCK_END, lambda style: render(style, table))
    except ValueError as e:
        die(f"{path}: {e}")
    return RUN_TAGGED.sub(lambda g: g.group(1) + run_value(g.group(2), g.group(3)), text)


def expanded(text, table):
    out = []
    for line in text.split("\n"):
        m = TEMPLATE_LINE.match(line)
        if m:
            out += render(m.group(1), table)
        else:
            out.append(RUN_INLINE.sub(lambda g: run_value(g.group(1), g.group(2)), line))
    return "\n".join(out)


def rst_updated(text, path, table, title):
    lines = text.split("\n")
    try:
        start = lines.index(title) + 2
    except ValueError:
        die(f"{path} has no section '{title}'")
    # The next title: a line underlined by a line of one repeated character.
    end = next((j for j in range(start, len(lines) - 1)
                if lines[j] and re.fullmatch(r"([-=~^])\1+", lines[j + 1])), None)
    if end is None:
        die(f"{path}: no section after '{title}'")
    return "\n".join(lines[:start] + rst_section(table) + lines[end:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rst", metavar="PROG_LSM_RST")
    ap.add_argument("--base", choices=sorted(TABLES), default="6.1",
                    help="the base whose table to use (default 6.1)")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--update", nargs="*", metavar="FILE")
    mode.add_argument("--check", nargs="*", metavar="FILE")
    mode.add_argument("--expand", metavar="TEMPLATE")
    args = ap.parse_args()
    table_path = os.path.join(ROOT, "Documentation", TABLES[args.base])
    title = f"Behaviour changes from {args.base}"
    table = rows(table_path)
    if args.expand:
        with open(args.expand) as f:
            sys.stdout.write(expanded(f.read(), table))
        return 0
    files = args.update if args.update is not None else args.check
    if args.rst:
        files = files + [args.rst]
    if not files:
        die("name the files to --update or --check")
    stale = 0
    for path in files:
        with open(path) as f:
            text = f.read()
        new = rst_updated(text, path, table, title) if path == args.rst else updated(text, path, table)
        if new == text:
            continue
        if args.check is not None:
            how = f"--rst {path} --update" if path == args.rst else f"--update {path}"
            print(f"docs-generate.py: {path} differs from {os.path.relpath(table_path, ROOT)} or "
                  f"Documentation/runs/; run scripts/docs-generate.py {how}", file=sys.stderr)
            stale = 1
        else:
            with open(path, "w") as f:
                f.write(new)
            print(f"docs-generate.py: updated {path}", file=sys.stderr)
    return stale


if __name__ == "__main__":
    sys.exit(main())
