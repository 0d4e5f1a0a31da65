#!/bin/bash
# Print the cover letter: <template> (default Documentation/cover-letter.txt) with its bench
# figures filled in from the base's run and the others (scripts/bench-runs.sh,
# scripts/bench-docs.py), then its behaviour-change list and test counts
# from Documentation/behaviour-changes.md and Documentation/runs/
# (scripts/docs-generate.py; <base> 6.12: Documentation/behaviour-changes-6.12.md).
# First line: the subject.
# usage: cover-letter.sh [<template> [<base>]]
set -euo pipefail

here=$(dirname "$0")
docs=$here/../Documentation
template=${1:-$docs/cover-letter.txt}
base=${2:-6.1}
mapfile -t runs < <("$here/bench-runs.sh" "$base")
"$here/bench-docs.py" "${runs[@]}" --expand "$template" |
	"$here/docs-generate.py" --base "$base" --expand /dev/stdin
