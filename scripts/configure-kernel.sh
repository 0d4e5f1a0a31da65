#!/bin/bash
# Write <out>/.config: x86_64 defconfig + kvm_guest.config + the bpf
# selftests config + extra fragments, then check that every option of the
# fragments survived olddefconfig as asked.
# With ARCH=arm64 in the environment: arm64's defconfig instead, built with
# $CROSS_COMPILE (default aarch64-linux-gnu-); an option of the fragments
# that no Kconfig of arm64 defines (RETPOLINE is x86's) is listed, not an
# error.
# usage: configure-kernel.sh <tree> <out> <fragment>...
set -euo pipefail

tree=$(realpath "${1:?usage: configure-kernel.sh <tree> <out> <fragment>...}")
out=${2:?usage: configure-kernel.sh <tree> <out> <fragment>...}
shift 2
[[ $# -gt 0 ]] || { echo "configure-kernel: no fragment given" >&2; exit 1; }
mkdir -p "$out"
out=$(realpath "$out")
fragments=()
for f in "$@"; do fragments+=("$(realpath "$f")"); done

case ${ARCH:-x86_64} in
x86 | x86_64) arch=x86 defconfig=x86_64_defconfig kmake=() ;;
arm64)
	arch=arm64 defconfig=defconfig
	kmake=(ARCH=arm64 CROSS_COMPILE="${CROSS_COMPILE:-aarch64-linux-gnu-}")
	;;
*) echo "configure-kernel: ARCH=$ARCH is not supported; use ARCH=arm64 or leave ARCH unset (x86_64)" >&2; exit 2 ;;
esac

cd "$tree"
make -s O="$out" "${kmake[@]}" "$defconfig" >/dev/null
KCONFIG_CONFIG="$out/.config" scripts/kconfig/merge_config.sh -m -O "$out" \
	"$out/.config" kernel/configs/kvm_guest.config \
	tools/testing/selftests/bpf/config "${fragments[@]}" >"$out/merge_config.log"
make -s O="$out" "${kmake[@]}" olddefconfig >/dev/null

# Whether a Kconfig file that this architecture reads defines <option>.
defined_here() { # <option>
	grep -rlEq --include='Kconfig*' --exclude-dir=arch "^[[:space:]]*(menu)?config ${1#CONFIG_}\$" . ||
		grep -rlEq --include='Kconfig*' "^[[:space:]]*(menu)?config ${1#CONFIG_}\$" "arch/$arch" arch/Kconfig
}

bad=0
for f in "${fragments[@]}"; do
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
			opt=${BASH_REMATCH[1]}
			want="$opt=${BASH_REMATCH[2]}"
		elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			opt=${BASH_REMATCH[1]}
			want="# $opt is not set"
		else
			continue
		fi
		got=$(grep -E "^($opt=|# $opt is not set)" "$out/.config" || true)
		if [[ $want == "# $opt is not set" && -z $got ]]; then
			continue
		fi
		if [[ $got != "$want" && -z $got && $arch != x86 ]] && ! defined_here "$opt"; then
			echo "configure-kernel: ${f##*/}: $opt does not exist on $arch; left out"
			continue
		fi
		if [[ $got != "$want" ]]; then
			echo "configure-kernel: ${f##*/} asks for '$want', .config has '${got:-nothing}'" >&2
			bad=1
		fi
	done <"$f"
done
if [[ $bad -ne 0 ]]; then
	echo "configure-kernel: fix the dependencies of the options above" >&2
	exit 1
fi
echo "configure-kernel: $out/.config ($(sha256sum "$out/.config" | cut -c1-12))"
