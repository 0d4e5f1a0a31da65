#!/bin/bash
# Print one checksum over `series` and the patches it lists, in order.
# usage: series-checksum.sh <series> <patchdir>
set -euo pipefail

series=$(realpath "${1:?usage: series-checksum.sh <series> <patchdir>}")
patchdir=${2:?usage: series-checksum.sh <series> <patchdir>}

names=$("$(dirname "$0")/series-patches.sh" "$series" "$patchdir")
mapfile -t names < <(printf '%s' "$names" | sed '/^$/d')
(cd "$patchdir" && cat "$series" ${names[@]+"${names[@]}"}) | sha256sum | cut -d' ' -f1
