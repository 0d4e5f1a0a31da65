#!/bin/bash
# Print the Debian package and version a series was made on, from its
# "# base: linux-source-<release> <Debian version>" line: "<package> <version>".
# usage: series-base.sh <series>
set -euo pipefail

series=${1:?usage: series-base.sh <series>}
line=$(sed -n 's/^# base: \(linux-source-[0-9.]*\) \([^[:space:]]*\).*/\1 \2/p' "$series" | head -1)
[[ -n $line ]] || { echo "series-base: $series has no '# base: linux-source-<release> <version>' line" >&2; exit 1; }
echo "$line"
