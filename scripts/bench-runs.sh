#!/bin/bash
# The make bench runs that the documents cite, as scripts/bench-docs.py
# arguments, one per line: <base>'s own run first (its cover letter's
# plain @<set>/...@ references; 6.1, the default: README's), then
# "--with" and <prefix>=<results.csv> for every other run, whose sets are
# cited as @<prefix>-<set>/...@.
# --own: the base's own run only.
# usage: bench-runs.sh [--own] [<base>]
set -euo pipefail

bench=$(realpath "$(dirname "$0")/../Documentation/bench")
own_only=
if [[ ${1:-} == --own ]]; then
	own_only=1
	shift
fi
base=${1:-6.1}
declare -A own=([6.1]=$bench/6.1/results.csv [6.12]=$bench/6.12/results.csv)
# prefix=run: the runs cited besides a base's own.
more=("6.12=$bench/6.12/results.csv" "6.1=$bench/6.1/results.csv"
	"6.12-arm64=$bench/6.12-arm64/results.csv" "6.1-arm64=$bench/6.1-arm64/results.csv")
[[ -n ${own[$base]:-} ]] || { echo "bench-runs.sh: no bench run of base '$base' (6.1 or 6.12)" >&2; exit 2; }
echo "${own[$base]}"
[[ -z $own_only ]] || exit 0
for m in "${more[@]}"; do
	printf -- '--with\n%s\n' "$m"
done
