#!/bin/bash
# Print the patches `series` lists, one per line, in order (comments and
# blank lines dropped); fail naming any that patches/ lacks.
# usage: series-patches.sh <series> <patchdir>
set -euo pipefail

series=${1:?usage: series-patches.sh <series> <patchdir>}
patchdir=${2:?usage: series-patches.sh <series> <patchdir>}

mapfile -t names < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series")
for n in ${names[@]+"${names[@]}"}; do
	[[ -f $patchdir/$n ]] || { echo "series-patches: $n is listed in series but not in patches/" >&2; exit 1; }
	echo "$n"
done
