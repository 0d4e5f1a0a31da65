#!/bin/bash
# Print the cover letter: <template> (default Documentation/cover-letter.txt) with its bench
# figures filled in from Documentation/bench/results.csv
# (scripts/bench-docs.py), then its behaviour-change list and test counts
# from Documentation/behaviour-changes.md and Documentation/runs/
# (scripts/docs-generate.py). First line: the subject.
# usage: cover-letter.sh [<template>]
set -euo pipefail

here=$(dirname "$0")
docs=$here/../Documentation
template=${1:-$docs/cover-letter.txt}
"$here/bench-docs.py" "$docs/bench/results.csv" --expand "$template" |
	"$here/docs-generate.py" --expand /dev/stdin
