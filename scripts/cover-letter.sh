#!/bin/bash
# Print the cover letter: <template> (default Documentation/cover-letter.txt) with its bench
# figures filled in from the base's run, Documentation/bench/results.csv
# (6.1) or Documentation/bench/<base>/results.csv (scripts/bench-docs.py), then its behaviour-change list and test counts
# from Documentation/behaviour-changes.md and Documentation/runs/
# (scripts/docs-generate.py; <base> 6.12: Documentation/behaviour-changes-6.12.md).
# First line: the subject.
# usage: cover-letter.sh [<template> [<base>]]
set -euo pipefail

here=$(dirname "$0")
docs=$here/../Documentation
template=${1:-$docs/cover-letter.txt}
base=${2:-6.1}
csv=$docs/bench/results.csv
[[ $base == 6.1 ]] || csv=$docs/bench/$base/results.csv
"$here/bench-docs.py" "$csv" --expand "$template" |
	"$here/docs-generate.py" --base "$base" --expand /dev/stdin
