#!/bin/bash
# kmemleak.sh clear|scan: forget what kmemleak suspects so far (the boot's
# allocations), or scan and fail on any new suspected leak, listing them.
# Exits 4 (skip) on a kernel without CONFIG_DEBUG_KMEMLEAK.
set -euo pipefail

k=/sys/kernel/debug/kmemleak
if [[ ! -w $k ]]; then
	echo "# no $k: kernel without CONFIG_DEBUG_KMEMLEAK"
	exit 4
fi
case ${1:-} in
clear)
	# clear only forgets objects already reported: scan first.
	echo scan >"$k"
	echo clear >"$k"
	;;
scan)
	# Objects younger than 5 s are never reported; two scans settle.
	sleep 6
	echo scan >"$k"
	echo scan >"$k"
	mapfile -t report <"$k"
	if [[ ${#report[@]} -gt 0 ]]; then
		printf '# %s\n' "${report[@]}"
		exit 1
	fi
	echo "# kmemleak: no new suspected leak"
	;;
*)
	echo "usage: kmemleak.sh clear|scan" >&2
	exit 2
	;;
esac
