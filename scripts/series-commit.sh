#!/bin/bash
# Print the commit of <tree> that holds exactly <series> with <patchdir>
# applied (apply-series.sh's stamp, written by make tree and make patches);
# fail, saying what to run, when the tree holds another series or none.
# usage: series-commit.sh <tree> <series> <patchdir>
set -euo pipefail

tree=${1:?usage: series-commit.sh <tree> <series> <patchdir>}
series=${2:?usage: series-commit.sh <tree> <series> <patchdir>}
patchdir=${3:?usage: series-commit.sh <tree> <series> <patchdir>}
stamp=$(git -C "$tree" rev-parse --absolute-git-dir)/krsi-series-applied
if [[ ! -f $stamp || $(cut -d' ' -f1 "$stamp") != "$("$(dirname "$0")/series-checksum.sh" "$series" "$patchdir")" ]]; then
	echo "series-commit: $tree does not hold this series (run make tree)" >&2
	exit 1
fi
cut -d' ' -f2 "$stamp"
