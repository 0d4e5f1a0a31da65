#!/bin/bash
# Run the BPF LSM benchmark: boot each configuration (-n times) under QEMU
# TCG with "-icount shift=0,sleep=off -smp 1" (guest ns = executed
# instructions), run selftests/bench/lsm_bench in it and keep what the
# guest printed.  Writes <outdir>/raw.txt (the guest's bench lines, each
# prefixed with "<config> <boot> secs=<host s>") and <outdir>/meta.txt (the
# run, the kernels, the sets and the configurations); scripts/bench-report.py
# turns those two files, and nothing else, into results.{csv,md,svg}.
#
# usage: bench.sh [-o outdir] [-b bindir] [-C configs] [-n boots] [-r rounds]
#                 [-s scale%] [-c attach-cycles] [-t timeout-s] [-j jobs]
#                 <set>:<lsm>:<stock-bzImage>:<patched-bzImage>[:<title>]...
#   A set is a pair of kernels built with the same configuration, the
#   stock base and the series, measured in six configurations.  <lsm>
#   is the lsm= list without bpf (empty: CONFIG_LSM of the stock kernel's
#   .config, bpf removed).  Configurations of the set "defconfig" are
#   numbered 1-6, those of another set carry its first letter (d1-d6).
#   -o  where raw.txt, meta.txt and the guest logs go (default build/bench)
#   -b  where lsm_bench and bench_attach are (default build/bench;
#       build them with make -C selftests/bench)
#   -C  comma-separated subset of the configurations (default all)
#   -n  guest boots per configuration (default 5)
#   -r  lsm_bench rounds per operation (default 7); -s iterations in % of
#       lsm_bench's defaults (default 100)
#   -c  attach+detach cycles per round, timed in (2) and (3) (default 20,
#       0: none)
#   -t  timeout per guest boot in seconds (default 900)
#   -j  guests booted at once (default: the host's CPUs); each has one
#       vCPU and counts instructions, so the host's load changes only
#       the wall time
# Configurations of a set, each in guest boots of its own:
#   (1) stock, lsm=<lsm> (no bpf): the limit
#   (2) stock, lsm=<lsm>,bpf, no program   (3) patched, the same
#   (4) stock + allow-all lsm/file_mprotect program   (5) patched + the same
#   (6) patched + allow-all lsm/file_open program
#   (7) stock + 4 allow-all lsm/file_mprotect programs   (8) patched + the same
# The .config and vmlinux next to each bzImage (<kbuild>/arch/x86/boot/
# bzImage, or arm64's <kbuild>/arch/arm64/boot/Image with KRSI_ARCH=arm64
# and KRSI_INITRD, as run-guest.sh wants) give the config hash and the
# section sizes.
set -euo pipefail

usage="usage: bench.sh [-o outdir] [-b bindir] [-C configs] [-n boots] [-r rounds] [-s scale%] [-c attach-cycles] [-t timeout-s] [-j jobs] <set>:<lsm>:<stock-bzImage>:<patched-bzImage>[:<title>]..."
bad() { echo "bench.sh: $1; $usage" >&2; exit 2; }

root=$(realpath "$(dirname "$0")/..")
outdir=$root/build/bench bindir=$root/build/bench
configs='' boots=5 rounds=7 scale=100 cycles=20 limit=900 jobs=$(nproc)
while getopts ':o:b:C:n:r:s:c:t:j:h' opt; do
	case $opt in
	o) outdir=$OPTARG ;;
	b) bindir=$OPTARG ;;
	C) configs=$OPTARG ;;
	n) boots=$OPTARG ;;
	r) rounds=$OPTARG ;;
	s) scale=$OPTARG ;;
	c) cycles=$OPTARG ;;
	t) limit=$OPTARG ;;
	j) jobs=$OPTARG ;;
	h) echo "$usage"; exit 0 ;;
	:) bad "-$OPTARG needs a value" ;;
	*) bad "unknown option -$OPTARG" ;;
	esac
done
shift $((OPTIND - 1))
[[ $# -ge 1 ]] || bad "name at least one set of kernels"
[[ $boots =~ ^[1-9]$ ]] || bad "-n wants 1 to 9 boots per configuration"
[[ $rounds =~ ^[1-9][0-9]?$ && $rounds -le 64 ]] || bad "-r wants 1 to 64 rounds"
[[ $scale =~ ^[1-9][0-9]*$ ]] || bad "-s wants a positive percentage"
[[ $cycles =~ ^[0-9]+$ ]] || bad "-c wants a number of cycles (0: none)"
[[ $limit =~ ^[1-9][0-9]*$ ]] || bad "-t wants a timeout in seconds"
[[ $jobs =~ ^[1-9][0-9]*$ ]] || bad "-j wants a number of guests"
for bin in lsm_bench bench_attach; do
	[[ -x $bindir/$bin ]] || bad "$bindir/$bin missing: run make -C selftests/bench first"
done
# run-guest.sh boots arm64 guests for KRSI_ARCH=arm64 (make bench ARCH=arm64).
# arm64 guests get a CPU without SVE: glibc's string functions make the
# bench's tasks SVE users, and each system call of an SVE user discards
# its vector state (66 instructions on -cpu max) until a context switch
# saves it, which a round's preemptions decide; its minimum fell in one of
# two levels.
case ${KRSI_ARCH:-x86_64} in
arm64)
	qemu="qemu-system-aarch64"
	export KRSI_CPU=${KRSI_CPU:-max,pauth-impdef=on,sve=off}
	;;
*)
	qemu="qemu-system-x86_64"
	export KRSI_CPU=${KRSI_CPU:-max}
	;;
esac
command -v "$qemu" >/dev/null || bad "$qemu not found: run make deps"
bindir=$(realpath "$bindir")
mkdir -p "$outdir/logs"
outdir=$(realpath "$outdir")

qemu_opts="-icount shift=0,sleep=off -smp 1"
# The kernel parameters run-guest.sh adds that matter here.
cmdline="nokaslr norandmaps"
meta=$outdir/meta.txt
rm -f "$outdir/raw.txt"
: >"$meta"

# <kbuild> of a bzImage: the directory holding its .config and vmlinux.
kbuild() { realpath -m "$(dirname "$1")/../../.."; }

# The git tree (not commit: rewording a commit message keeps it) of the
# kernel source a build directory was made from, "-dirty" if it has
# uncommitted changes; n/a if that source is not a git work tree.
source_tree() { # <kbuild>
	local src=$1/source tree
	tree=$(git -C "$src" rev-parse --short=12 'HEAD^{tree}' 2>/dev/null) || { echo n/a; return; }
	[[ -z $(git -C "$src" status --porcelain --untracked-files=no 2>/dev/null) ]] || tree+=-dirty
	echo "$tree"
}

kernel_record() { # <name> <image> [<same_as>]
	local dir hash=n/a sizes=(n/a n/a n/a)
	dir=$(kbuild "$2")
	[[ -r $dir/.config ]] && hash=$(sha256sum "$dir/.config" | cut -c1-12)
	[[ -r $dir/vmlinux ]] && read -ra sizes < <(size "$dir/vmlinux" | awk 'NR == 2 { print $1, $2, $3 }')
	printf 'kernel\tname=%s\timage=%s\tconfig_sha256_12=%s\ttext=%s\tdata=%s\tbss=%s\tsame_as=%s\ttree=%s\n' \
		"$1" "${2#"$root"/}" "$hash" "${sizes[@]}" "${3:-}" "$(source_tree "$dir")" >>"$meta"
}

# Per configuration: id, image, lsm=, program's hook, attach cycles.
declare -A cimage clsm chook cattach
order=()
declare -A prefixes
for spec in "$@"; do
	IFS=: read -r set lsm stock patched title <<<"$spec"
	[[ $set =~ ^[a-z][a-z0-9_-]*$ ]] || bad "set name '$set' in '$spec' wants lower-case letters, digits, - or _"
	[[ -n $stock && -n $patched ]] || bad "'$spec' wants <set>:<lsm>:<stock-bzImage>:<patched-bzImage>"
	for img in "$stock" "$patched"; do
		[[ -r $img ]] || bad "$img is not a readable bzImage (build it first)"
	done
	stock=$(realpath "$stock") patched=$(realpath "$patched")
	if [[ -z $lsm ]]; then
		lsm=$(sed -n 's/^CONFIG_LSM="\(.*\)"$/\1/p' "$(kbuild "$stock")/.config" |
			tr , '\n' | grep -vx bpf | paste -sd,)
		[[ -n $lsm ]] || bad "no CONFIG_LSM in $(kbuild "$stock")/.config: give <lsm> in '$spec'"
	fi
	[[ $lsm =~ ^[a-z,]+$ && ! ,$lsm, =~ ,bpf, ]] || bad "<lsm> '$lsm' wants LSM names without bpf"
	if [[ $set == defconfig ]]; then
		prefix='' suffix=''
	else
		prefix=${set:0:1} suffix=-$set
	fi
	[[ -z ${prefixes[x$prefix]:-} ]] || bad "sets ${prefixes[x$prefix]} and $set would share configuration names: rename one"
	prefixes[x$prefix]=$set
	same=
	if cmp -s "$stock" "$patched"; then
		same=stock$suffix
		echo "bench.sh: note: $set: stock and patched are the same image" >&2
	fi
	kernel_record "stock$suffix" "$stock"
	kernel_record "patched$suffix" "$patched" "$same"
	printf 'set\tname=%s\ttitle=%s\tbase=%s1\n' "$set" "${title:-$set}" "$prefix" >>"$meta"
	knames=([0]=stock$suffix [1]=patched$suffix) images=([0]=$stock [1]=$patched)
	n=0
	# kernel lsm hook attach label, configurations 1-8
	while read -r k withbpf hook attach label; do
		n=$((n + 1)) id=$prefix$n
		clsm[$id]=$lsm
		[[ $withbpf == 1 ]] && clsm[$id]=$lsm,bpf
		cimage[$id]=${images[k]} chook[$id]=$hook cattach[$id]=0
		[[ $attach == 1 ]] && cattach[$id]=$cycles
		order+=("$id")
		printf 'config\tid=%s\tset=%s\tkernel=%s\tlsm=%s\tprogram=%s\tattach_cycles=%s\tlabel=%s\n' \
			"$id" "$set" "${knames[k]}" "${clsm[$id]}" "$hook" "${cattach[$id]}" "$label" >>"$meta"
	done <<-EOF
		0 0 none 0 stock, no bpf
		0 1 none 1 stock, bpf, no prog
		1 1 none 1 patched, bpf, no prog
		0 1 file_mprotect 0 stock + file_mprotect prog
		1 1 file_mprotect 0 patched + file_mprotect prog
		1 1 file_open 0 patched + file_open prog
		0 1 4*file_mprotect 0 stock + 4 file_mprotect progs
		1 1 4*file_mprotect 0 patched + 4 file_mprotect progs
	EOF
done

selected=("${order[@]}")
if [[ -n $configs ]]; then
	IFS=, read -ra selected <<<"$configs"
	for id in "${selected[@]}"; do
		[[ -n ${cimage[$id]:-} ]] || bad "-C: no configuration '$id' (these exist: ${order[*]})"
	done
fi

# One boot: the guest's bench lines into raw.d/<id>.<boot>.
boot() { # <id> <boot>
	local id=$1 b=$2 log start secs
	log=$outdir/logs/config$id.boot$b.log
	start=$(date +%s)
	if ! KRSI_QEMU_OPTS="${KRSI_QEMU_OPTS:-} $qemu_opts" \
		"$root/scripts/run-guest.sh" "${cimage[$id]}" "$log" "$limit" \
		"${clsm[$id]}" -- "$root/selftests/bench/guest-bench.sh" \
		"$bindir" "${chook[$id]}" "${cattach[$id]}" -r "$rounds" \
		-s "$scale" >"$log.out" 2>&1; then
		echo "bench.sh: ($id) boot $b failed; the guest log is $log:" >&2
		tail -5 "$log.out" >&2
		return 1
	fi
	secs=$(($(date +%s) - start))
	tr -d '\r' <"$log" | awk -v c="$id" -v b="$b" -v secs="$secs" '
		/^bench (env|op=)/ { print c, b, "secs=" secs, $0 }' >"$outdir/raw.d/$id.$b"
	if ! grep -q ' bench op=getppid' "$outdir/raw.d/$id.$b"; then
		echo "bench.sh: ($id) boot $b printed no results; the guest log is $log" >&2
		return 1
	fi
	echo "bench.sh: ($id) boot $b: $secs s" >&2
}

rm -rf "$outdir/raw.d"
mkdir "$outdir/raw.d"
total_start=$(date +%s)
failed=0 running=0
for id in "${selected[@]}"; do
	for ((b = 1; b <= boots; b++)); do
		if ((running == jobs)); then
			wait -n || failed=1
			running=$((running - 1))
		fi
		((failed)) && break 2
		boot "$id" "$b" &
		running=$((running + 1))
	done
done
while ((running > 0)); do
	wait -n || failed=1
	running=$((running - 1))
done
((failed == 0)) || { echo "bench.sh: a boot failed (above); no results written" >&2; exit 1; }
total_secs=$(($(date +%s) - total_start))

: >"$outdir/raw.txt"
for id in "${selected[@]}"; do
	for ((b = 1; b <= boots; b++)); do
		cat "$outdir/raw.d/$id.$b" >>"$outdir/raw.txt"
	done
done
rm -rf "$outdir/raw.d"
{
	printf 'run\tdate=%s\tqemu=%s\tqemu_opts=%s\tkernel_cmdline=%s' \
		"$(date -u '+%Y-%m-%d %H:%M UTC')" "$("$qemu" --version | head -1)" \
		"-cpu $KRSI_CPU $qemu_opts" "$cmdline"
	printf '\trounds=%s\tboots=%s\tscale=%s\thost_secs=%s\tjobs=%s' \
		"$rounds" "$boots" "$scale" "$total_secs" "$jobs"
	# The base (make exports it): the reports' title names it.
	[[ -z ${KRSI_BASE:-} ]] || printf '\tbase=%s' "$KRSI_BASE"
	printf '\n'
	cat "$meta"
} >"$meta.tmp"
mv "$meta.tmp" "$meta"
echo "bench.sh: $outdir/raw.txt, meta.txt (${#selected[@]} configurations × $boots boots, $total_secs s)" >&2
