#!/bin/bash
# Print the cover letter: Documentation/cover-letter.txt with its bench
# figures filled in from Documentation/bench/results.csv
# (scripts/bench-docs.py), then its behaviour-change list and test counts
# from Documentation/behaviour-changes.md and Documentation/runs/
# (scripts/docs-generate.py). First line: the subject.
# usage: cover-letter.sh
set -euo pipefail

here=$(dirname "$0")
docs=$here/../Documentation
"$here/bench-docs.py" "$docs/bench/results.csv" --expand "$docs/cover-letter.txt" |
	"$here/docs-generate.py" --expand /dev/stdin
