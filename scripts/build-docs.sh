#!/bin/bash
# Build the tree's BPF documentation (Documentation/bpf) with Sphinx, out
# of tree, and fail if Sphinx warns about a file the series touches.
# usage: build-docs.sh <kernel tree> <output dir>
set -euo pipefail

tree=${1:?usage: build-docs.sh <kernel tree> <output dir>}
out=${2:?usage: build-docs.sh <kernel tree> <output dir>}
mkdir -p "$out"
out=$(realpath "$out")
log=$out/sphinx.log

if ! command -v sphinx-build >/dev/null; then
	echo "build-docs: sphinx-build not found; run make deps" >&2
	exit 1
fi
make -C "$tree" O="$out" SPHINXDIRS=bpf htmldocs >"$log" 2>&1 || {
	tail -20 "$log"
	echo "build-docs: FAIL: htmldocs (log: $log)"
	exit 1
}
# Warnings about the documents of the series; the base has its own.
if grep -E 'prog_lsm\.rst.*(WARNING|ERROR)' "$log"; then
	echo "build-docs: FAIL: Sphinx warnings in prog_lsm.rst (log: $log)"
	exit 1
fi
echo "build-docs: $out/Documentation/output/bpf/index.html ($(grep -c 'WARNING' "$log" || true) warning(s) elsewhere in Documentation/bpf, none in prog_lsm.rst)"
