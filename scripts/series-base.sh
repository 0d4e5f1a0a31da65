#!/bin/bash
# Print the Debian package and version a series was made on, "<package>
# <version>": from the "# base: linux-source-<release> <Debian version>"
# line of <series>, or, given a kernel tree, from the base prepare-base.sh
# extracted there (its "Linux <kver> (Debian <package> <version>)").
# usage: series-base.sh <series> | <tree>
set -euo pipefail

arg=${1:?usage: series-base.sh <series> | <tree>}
if [[ -d $arg ]]; then
	file=$(git -C "$arg" rev-parse --path-format=absolute --git-common-dir)/krsi-base-version
	line=$(sed -n 's/.*(Debian \(linux-source-[0-9.]*\) \(.*\))$/\1 \2/p' "$file")
	[[ -n $line ]] || { echo "series-base: $file does not name a Debian linux-source package" >&2; exit 1; }
else
	line=$(sed -n 's/^# base: \(linux-source-[0-9.]*\) \([^[:space:]]*\).*/\1 \2/p' "$arg" | head -1)
	[[ -n $line ]] || { echo "series-base: $arg has no '# base: linux-source-<release> <version>' line" >&2; exit 1; }
fi
echo "$line"
