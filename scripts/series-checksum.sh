#!/bin/bash
# Print one checksum over `series` and the patches it lists, in order.
# usage: series-checksum.sh <series> <patchdir>
set -euo pipefail

series=$(realpath "${1:?usage: series-checksum.sh <series> <patchdir>}")
patchdir=${2:?usage: series-checksum.sh <series> <patchdir>}

mapfile -t names < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series")
for n in ${names[@]+"${names[@]}"}; do
	[[ -f $patchdir/$n ]] || { echo "series-checksum: $n is listed in series but not in patches/" >&2; exit 1; }
done
(cd "$patchdir" && cat "$series" ${names[@]+"${names[@]}"}) | sha256sum | cut -d' ' -f1
