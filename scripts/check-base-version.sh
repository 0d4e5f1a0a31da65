#!/bin/bash
# Stop when the base found is not the one the series was made on: `series`
# names it in a "# base: linux-source-<release> <Debian version>" line. With
# BASE_OK=1 in the environment, say so and go on (patches may then fail to
# apply; apply-series.sh says which).
# usage: check-base-version.sh <series> <version found> <what has it>
set -euo pipefail

if [[ $# -ne 3 ]]; then
	echo "usage: check-base-version.sh <series> <version found> <what has it>" >&2
	exit 2
fi
series=$1 found=$2 where=$3

read -r pkg want < <("$(dirname "$0")/series-base.sh" "$series")
[[ $found != "$want" ]] || exit 0
if [[ ${BASE_OK:-} == 1 ]]; then
	echo "check-base-version: $where is $pkg $found, the series was made on $want; going on (BASE_OK=1)" >&2
	exit 0
fi
echo "check-base-version: the series was made on $pkg $want, but $where is $found." >&2
echo "check-base-version: install $want (apt-get install $pkg=$want), or run with BASE_OK=1 to try $found anyway." >&2
exit 1
