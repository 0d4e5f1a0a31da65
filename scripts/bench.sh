#!/bin/bash
# Measure what BPF LSM hooks cost, stock 6.1 against the series, in guest
# instructions: boot each configuration (-n times) under QEMU TCG with
# "-icount shift=0,sleep=off -smp 1" (guest ns = executed instructions),
# run selftests/bench/lsm_bench in it, and write results.csv, results.md
# and results.svg (overhead of each configuration over (1) per operation).
# Host time: ~25 s per boot on a busy 2-core machine, so ~13 min for all
# six configurations with the default 5 boots each.
#
# usage: bench.sh [-o outdir] [-b bindir] [-C configs] [-n boots] [-r rounds]
#                 [-s scale%] [-c attach-cycles] [-t timeout-s]
#                 <stock-bzImage> <patched-bzImage>
#   -o  where results and guest logs go (default build/bench)
#   -b  where lsm_bench and bench_attach are (default build/bench;
#       build them with make -C selftests/bench)
#   -C  comma-separated subset of the configurations 1-6 (default all)
#   -n  guest boots per configuration (default 5); a result is the minimum
#       over the boots of lsm_bench's value (itself the median over its
#       rounds, each in a fresh exec): in some boots an operation costs a
#       few instructions more in every round (pread on the series: +8 in 3
#       of 9 boots), which a median over 3 boots let through in each of
#       two runs
#   -r  lsm_bench rounds per operation (default 7); -s iterations in % of
#       lsm_bench's defaults (default 100)
#   -c  attach+detach cycles per round, timed in (2) and (3) (default 20,
#       0: none)
#   -t  timeout per guest boot in seconds (default 900)
# Configurations, each in guest boots of its own:
#   (1) stock, lsm=yama,integrity (no bpf): the limit
#   (2) stock, lsm=...,bpf, no program   (3) patched, lsm=...,bpf, no program
#   (4) stock + allow-all lsm/file_mprotect program   (5) patched + the same
#   (6) patched + allow-all lsm/file_open program
# The .config and vmlinux next to each bzImage (<kbuild>/arch/x86/boot/
# bzImage) give the config hash and the section sizes.
set -euo pipefail

usage="usage: bench.sh [-o outdir] [-b bindir] [-C configs] [-n boots] [-r rounds] [-s scale%] [-c attach-cycles] [-t timeout-s] <stock-bzImage> <patched-bzImage>"
bad() { echo "bench.sh: $1; $usage" >&2; exit 2; }

root=$(realpath "$(dirname "$0")/..")
outdir=$root/build/bench bindir=$root/build/bench
configs=1,2,3,4,5,6 boots=5 rounds=7 scale=100 cycles=20 limit=900
while getopts ':o:b:C:n:r:s:c:t:h' opt; do
	case $opt in
	o) outdir=$OPTARG ;;
	b) bindir=$OPTARG ;;
	C) configs=$OPTARG ;;
	n) boots=$OPTARG ;;
	r) rounds=$OPTARG ;;
	s) scale=$OPTARG ;;
	c) cycles=$OPTARG ;;
	t) limit=$OPTARG ;;
	h) echo "$usage"; exit 0 ;;
	:) bad "-$OPTARG needs a value" ;;
	*) bad "unknown option -$OPTARG" ;;
	esac
done
shift $((OPTIND - 1))
[[ $# -eq 2 ]] || bad "give the stock and the patched bzImage"
[[ $configs =~ ^[1-6](,[1-6])*$ ]] || bad "-C wants configuration numbers 1-6, comma-separated"
[[ $boots =~ ^[1-9]$ ]] || bad "-n wants 1 to 9 boots per configuration"
[[ $rounds =~ ^[1-9][0-9]?$ && $rounds -le 64 ]] || bad "-r wants 1 to 64 rounds"
[[ $scale =~ ^[1-9][0-9]*$ ]] || bad "-s wants a positive percentage"
[[ $cycles =~ ^[0-9]+$ ]] || bad "-c wants a number of cycles (0: none)"
[[ $limit =~ ^[1-9][0-9]*$ ]] || bad "-t wants a timeout in seconds"
for img in "$1" "$2"; do
	[[ -r $img ]] || bad "$img is not a readable bzImage"
done
for bin in lsm_bench bench_attach; do
	[[ -x $bindir/$bin ]] || bad "$bindir/$bin missing: run make -C selftests/bench first"
done
command -v qemu-system-x86_64 >/dev/null || bad "qemu-system-x86_64 not found: run make deps"

image=([1]=$(realpath "$1") [2]=$(realpath "$2"))
bindir=$(realpath "$bindir")
mkdir -p "$outdir/logs"
outdir=$(realpath "$outdir")
kname=([1]=stock [2]=patched)

# Per configuration: kernel (1 stock, 2 patched), lsm=, program's hook.
nobpf=yama,integrity withbpf=$nobpf,bpf
kern=([1]=1 [2]=1 [3]=2 [4]=1 [5]=2 [6]=2)
lsm=([1]=$nobpf [2]=$withbpf [3]=$withbpf [4]=$withbpf [5]=$withbpf [6]=$withbpf)
hook=([1]=none [2]=none [3]=none [4]=file_mprotect [5]=file_mprotect [6]=file_open)
attach=([1]=0 [2]=$cycles [3]=$cycles [4]=0 [5]=0 [6]=0)
label=([1]="stock, no bpf" [2]="stock, bpf, no prog"
	[3]="patched, bpf, no prog" [4]="stock + file_mprotect prog"
	[5]="patched + file_mprotect prog" [6]="patched + file_open prog")

# Kernel facts, from the build directory of each bzImage.
declare -a cfghash ksize
for k in 1 2; do
	kbuild=$(realpath -m "$(dirname "${image[k]}")/../../..")
	cfghash[k]=n/a ksize[k]="n/a n/a n/a"
	if [[ -r $kbuild/.config ]]; then
		cfghash[k]=$(sha256sum "$kbuild/.config" | cut -c1-12)
	fi
	if [[ -r $kbuild/vmlinux ]]; then
		ksize[k]=$(size "$kbuild/vmlinux" | awk 'NR == 2 { print $1, $2, $3 }')
	fi
done
same=0
if cmp -s "${image[1]}" "${image[2]}"; then
	same=1
	echo "bench.sh: note: stock and patched are the same image; the \"patched\" configurations run it too" >&2
fi
qemu_version=$(qemu-system-x86_64 --version | head -1)
qemu_opts="-icount shift=0,sleep=off -smp 1"

raw=$outdir/raw.txt
: >"$raw"
total_start=$(date +%s)
IFS=, read -ra selected <<<"$configs"
for c in "${selected[@]}"; do
	k=${kern[c]}
	printf 'bench.sh: (%d) %s:' "$c" "${label[c]}" >&2
	for ((b = 1; b <= boots; b++)); do
		log=$outdir/logs/config$c.boot$b.log
		start=$(date +%s)
		if ! KRSI_QEMU_OPTS="${KRSI_QEMU_OPTS:-} $qemu_opts" \
			"$root/scripts/run-guest.sh" "${image[k]}" "$log" "$limit" \
			"${lsm[c]}" -- "$root/selftests/bench/guest-bench.sh" \
			"$bindir" "${hook[c]}" "${attach[c]}" -r "$rounds" \
			-s "$scale" >"$log.out" 2>&1; then
			echo " FAILED" >&2
			tail -5 "$log.out" >&2
			echo "bench.sh: configuration $c failed; the guest log is $log" >&2
			exit 1
		fi
		secs=$(($(date +%s) - start))
		printf ' %d s' "$secs" >&2
		tr -d '\r' <"$log" | awk -v c="$c" -v b="$b" -v secs="$secs" '
			/^bench (env|op=)/ { print c, b, "secs=" secs, $0 }' >>"$raw"
		if ! grep -q "^$c $b .*bench op=getppid" "$raw"; then
			echo >&2
			echo "bench.sh: configuration $c printed no results; the guest log is $log" >&2
			exit 1
		fi
	done
	echo >&2
done
total_secs=$(($(date +%s) - total_start))

# raw.txt, one line per guest line: "<config> <boot> secs=<s> bench env k=v..."
# or "<config> <boot> secs=<s> bench op=<op> k=v...".
awk -v csv="$outdir/results.csv" -v md="$outdir/results.md" \
	-v svg="$outdir/results.svg" -v configs="$configs" \
	-v img1="${image[1]#"$root"/}" -v img2="${image[2]#"$root"/}" -v same="$same" \
	-v hash1="${cfghash[1]}" -v hash2="${cfghash[2]}" \
	-v size1="${ksize[1]}" -v size2="${ksize[2]}" \
	-v qemu="$qemu_version" -v qopts="$qemu_opts" -v rounds="$rounds" \
	-v boots="$boots" -v scale="$scale" -v total="$total_secs" \
	-v date="$(date -u '+%Y-%m-%d %H:%M UTC')" \
	-v kerns="${kern[*]}" -v lsms="${lsm[*]}" -v hooks="${hook[*]}" \
	-v labels="$(IFS='|'; echo "${label[*]}")" -v knames="${kname[*]}" '
function fmt_delta(d, p) { return sprintf("%+.1f (%+.2f %%)", d, p) }
# Median of v[key, 1..n]; also sets lo and hi.
function median(v, key, n,    a, i, j, t) {
	for (i = 1; i <= n; i++) a[i] = v[key, i] + 0
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	lo = a[1]; hi = a[n]
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function list(v, key, n,    i, out) {
	out = sprintf("%.2f", v[key, 1])
	for (i = 2; i <= n; i++) out = out sprintf(";%.2f", v[key, i])
	return out
}
BEGIN {
	split(kerns, kern, " "); split(lsms, lsm, " "); split(hooks, hook, " ")
	split(labels, label, "|"); split(knames, kname, " ")
	nsel = split(configs, sel, ",")
	img[1] = img1; img[2] = img2; hash[1] = hash1; hash[2] = hash2
	split(size1, sz1, " "); split(size2, sz2, " ")
}
{
	c = $1
	delete kv
	for (i = 5; i <= NF; i++) {
		eq = index($i, "=")
		if (eq)
			kv[substr($i, 1, eq - 1)] = substr($i, eq + 1)
	}
	if ($5 == "env") {
		secs[c] += substr($3, 6)
		uname[c] = kv["kernel"]; active[c] = kv["lsm"]
		if (clocksrc[c] != "" && clocksrc[c] != kv["clocksource"])
			clocksrc[c] = clocksrc[c] "+" kv["clocksource"]
		else
			clocksrc[c] = kv["clocksource"]
		cpus[c] = kv["cpus"]
		next
	}
	op = kv["op"]; key = c SUBSEP op
	if (op ~ /^attach_detach/) {
		if (!(key in an)) { natt++; att_key[natt] = key; att_c[natt] = c; att_op[natt] = op }
		n = ++an[key]
		av[key, n] = kv["ns_per_op"]; acpu[key, n] = kv["cpu_ns_per_op"]
		att_it[key] = kv["iters"]; att_r[key] = kv["rounds"]
		next
	}
	if (!(op in seen)) { seen[op] = 1; ops[++nops] = op }
	n = ++nb[key]
	v[key, n] = kv["ns_per_op"]
	it[key] = kv["iters"]; rd[key] = kv["rounds"]
	if (kv["spread_pct"] + 0 > rsp[key]) rsp[key] = kv["spread_pct"] + 0
	have[c] = 1
}
END {
	for (key in nb) {
		median(v, key, nb[key])
		ns[key] = bmin[key] = lo; bmax[key] = hi
		bsp[key] = (hi - lo) / lo * 100
	}
	for (a = 1; a <= natt; a++) {
		key = att_key[a]
		att_ns[a] = median(av, key, an[key]); att_lo[a] = lo; att_hi[a] = hi
		att_cpu[a] = median(acpu, key, an[key]); att_clo[a] = lo; att_chi[a] = hi
		att_n[a] = an[key]; att_it2[a] = att_it[key]; att_r2[a] = att_r[key]
	}
	base = 1 in have

	print "config,label,kernel,image,uname,config_sha256_12,lsm,program,op,iters,rounds,boots,ns_per_op,boot_min,boot_max,boot_spread_pct,round_spread_pct_max,boot_values,cpu_ns_per_op,delta_vs_1,pct_vs_1" > csv
	for (s = 1; s <= nsel; s++) {
		c = sel[s]
		prog = hook[c] == "none" ? "" : "lsm/" hook[c]
		for (o = 1; o <= nops; o++) {
			op = ops[o]; key = c SUBSEP op
			d = p = ""
			if (base && c != 1) {
				d = sprintf("%.2f", ns[key] - ns[1, op])
				p = sprintf("%.3f", (ns[key] - ns[1, op]) / ns[1, op] * 100)
			}
			printf "%d,\"%s\",%s,%s,%s,%s,\"%s\",%s,%s,%d,%d,%d,%.2f,%.2f,%.2f,%.3f,%.3f,%s,,%s,%s\n",
				c, label[c], kname[kern[c]], img[kern[c]], uname[c],
				hash[kern[c]], lsm[c], prog, op, it[key], rd[key], nb[key],
				ns[key], bmin[key], bmax[key], bsp[key], rsp[key],
				list(v, key, nb[key]), d, p > csv
		}
	}
	for (a = 1; a <= natt; a++) {
		c = att_c[a]
		printf "%d,\"%s\",%s,%s,%s,%s,\"%s\",lsm/file_mprotect,%s,%d,%d,%d,%.2f,%.2f,%.2f,%.3f,,%s,%.2f,,\n",
			c, label[c], kname[kern[c]], img[kern[c]], uname[c],
			hash[kern[c]], lsm[c], att_op[a], att_it2[a], att_r2[a], att_n[a],
			att_ns[a], att_lo[a], att_hi[a], (att_hi[a] - att_lo[a]) / att_ns[a] * 100,
			list(av, att_key[a], att_n[a]), att_cpu[a] > csv
	}

	print "# BPF LSM hook overhead: stock 6.1 against the series\n" > md
	printf "Generated by `scripts/bench.sh` on %s; %d configurations × %d boots in %d s of host time.\n\n", date, nsel, boots, total > md
	print "Instrument: " qemu ", TCG, `" qopts "`, kernel parameters `nokaslr norandmaps`." > md
	print "Under icount with shift=0 guest time advances 1 ns per executed guest instruction, so guest" > md
	print "`CLOCK_MONOTONIC` ns per operation are instructions per operation (the loop included)." > md
	printf "`lsm_bench`: %d rounds per operation at %d %% of its default iterations, each round in a\n", rounds, scale > md
	print "fresh exec (set-up, warm-up, timed loop); a boot'"'"'s value is the median over its rounds," > md
	printf "a result the minimum over %d boot(s) of the configuration. Why: in some boots an operation\n", boots > md
	print "costs a few instructions more in every round (pread on the series: 1175.8 in most boots," > md
	print "1183.8 in 3 of 9), which a median over three boots let through in each of two runs.\n" > md
	if (same)
		print "**Note:** stock and patched were the same image: every \"patched\" configuration measured that one kernel.\n" > md

	print "## Kernels\n" > md
	print "| kernel | bzImage | uname -r (guest) | .config sha256 | vmlinux text | data | bss |" > md
	print "|---|---|---|---|---:|---:|---:|" > md
	for (k = 1; k <= 2; k++) {
		u = ""
		for (s = 1; s <= nsel; s++)
			if (kern[sel[s]] == k && uname[sel[s]] != "") u = uname[sel[s]]
		if (k == 1) { t = sz1[1]; dd = sz1[2]; b = sz1[3] }
		else { t = sz2[1]; dd = sz2[2]; b = sz2[3] }
		printf "| %s | `%s` | %s | %s | %s | %s | %s |\n", kname[k], img[k], u == "" ? "(not booted)" : u, hash[k], t, dd, b > md
	}
	if (sz1[1] ~ /^[0-9]+$/ && sz2[1] ~ /^[0-9]+$/)
		printf "| patched − stock | | | | %+d | %+d | %+d |\n", sz2[1] - sz1[1], sz2[2] - sz1[2], sz2[3] - sz1[3] > md

	print "\n## Configurations\n" > md
	print "| # | configuration | kernel | lsm= | active LSMs (guest) | program | clocksource | vCPUs | host s |" > md
	print "|---|---|---|---|---|---|---|---|---:|" > md
	for (s = 1; s <= nsel; s++) {
		c = sel[s]
		printf "| (%d) | %s | %s | %s | %s | %s | %s | %s | %s |\n", c, label[c], kname[kern[c]], lsm[c], active[c], hook[c] == "none" ? "-" : "allow-all lsm/" hook[c], clocksrc[c], cpus[c], secs[c] > md
		if (clocksrc[c] != "tsc") warn = warn "\n**Warning:** (" c ") ran on clocksource " clocksrc[c] ", not tsc."
	}
	if (warn != "") print warn > md

	print "\n## Instructions per operation\n" > md
	hdr = "| operation |"; rule = "|---|"
	for (s = 1; s <= nsel; s++) { hdr = hdr " (" sel[s] ") |"; rule = rule "---:|" }
	print hdr > md; print rule > md
	for (o = 1; o <= nops; o++) {
		op = ops[o]; line = "| " op " |"
		for (s = 1; s <= nsel; s++) line = line sprintf(" %.1f |", ns[sel[s], op])
		print line > md
	}

	if (base && nsel > 1) {
		print "\n## Overhead over (1), instructions per operation (percent)\n" > md
		hdr = "| operation |"; rule = "|---|"
		for (s = 1; s <= nsel; s++) if (sel[s] != 1) { hdr = hdr " (" sel[s] ") − (1) |"; rule = rule "---:|" }
		print hdr > md; print rule > md
		for (o = 1; o <= nops; o++) {
			op = ops[o]; line = "| " op " |"
			for (s = 1; s <= nsel; s++) {
				c = sel[s]
				if (c == 1) continue
				line = line " " fmt_delta(ns[c, op] - ns[1, op], (ns[c, op] - ns[1, op]) / ns[1, op] * 100) " |"
			}
			print line > md
		}
		print "\n![overhead over (1) per operation](results.svg)" > md
	} else {
		print "\n(Configuration (1) was not run: no overhead table.)" > md
	}

	print "\n## Repeatability\n" > md
	print "Per cell: largest spread (max − min) / min over the rounds of one boot, then" > md
	print "spread (max − min) / min of the per-boot values over the boots, in percent.\n" > md
	hdr = "| operation | iterations |"; rule = "|---|---:|"
	for (s = 1; s <= nsel; s++) { hdr = hdr " (" sel[s] ") |"; rule = rule "---:|" }
	print hdr > md; print rule > md
	for (o = 1; o <= nops; o++) {
		op = ops[o]; line = "| " op " | " it[sel[1], op] " |"
		for (s = 1; s <= nsel; s++) line = line sprintf(" %.3f / %.3f |", rsp[sel[s], op], bsp[sel[s], op])
		print line > md
	}

	if (natt) {
		print "\n## Attach + detach of the file_mprotect program\n" > md
		print "`bench_attach --attach-cycles N`: the program is loaded once, then rounds of N" > md
		print "`bpf_program__attach()` + `bpf_link__destroy()`; per boot the minimum over the rounds," > md
		print "then the median over the boots (min–max in brackets). Guest ns include the time the task" > md
		print "sleeps (grace periods: idle time QEMU skips, not instructions); CPU ns are the" > md
		print "task'"'"'s own CPU time, i.e. its instructions, kernel work done in its context included.\n" > md
		print "| # | kernel | cycles × rounds × boots | guest ns / cycle | CPU ns (≈ instructions) / cycle |" > md
		print "|---|---|---|---:|---:|" > md
		for (a = 1; a <= natt; a++) {
			c = att_c[a]
			printf "| (%d) | %s | %d × %d × %d | %.0f (%.0f–%.0f) | %.0f (%.0f–%.0f) |\n", c, kname[kern[c]], att_it2[a], att_r2[a], att_n[a], att_ns[a], att_lo[a], att_hi[a], att_cpu[a], att_clo[a], att_chi[a] > md
			if (c == 2) a2 = a
			if (c == 3) a3 = a
		}
		if (a2 && a3)
			printf "| (3) − (2) | patched − stock | | %+.0f | %+.0f (%+.2f %%) |\n", att_ns[a3] - att_ns[a2], att_cpu[a3] - att_cpu[a2], (att_cpu[a3] - att_cpu[a2]) / att_cpu[a2] * 100 > md
	}

	# The plot: per operation, one bar per configuration: percent over (1).
	if (!(base && nsel > 1)) exit
	ncfg = 0
	for (s = 1; s <= nsel; s++) if (sel[s] != 1) cfgs[++ncfg] = sel[s]
	pmin = 0; pmax = 0
	for (o = 1; o <= nops; o++)
		for (j = 1; j <= ncfg; j++) {
			p = (ns[cfgs[j], ops[o]] - ns[1, ops[o]]) / ns[1, ops[o]] * 100
			if (p > pmax) pmax = p
			if (p < pmin) pmin = p
		}
	# Ignore noise-sized negatives (getppid) when choosing the axis.
	if (pmin > -0.1) pmin = 0
	step = 0.5
	while ((pmax - pmin) / step > 10) step *= 2
	pmax = step * int(pmax / step + 1); pmin = pmin < 0 ? -step * int(-pmin / step + 1) : 0
	color[2] = "#9e9e9e"; color[3] = "#1f77b4"; color[4] = "#d62728"
	color[5] = "#2ca02c"; color[6] = "#ff7f0e"
	left = 130; right = 230; plotw = 560; bar = 11; gap = 14; top = 60
	grouph = ncfg * bar + gap
	height = top + nops * grouph + 60
	width = left + plotw + right
	x0 = left + (0 - pmin) / (pmax - pmin) * plotw
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", width, height > svg
	printf "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", width, height > svg
	printf "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">Overhead over (1) stock without bpf, in %% of its instructions per operation</text>\n" > svg
	qv = qemu; sub(/^QEMU emulator version /, "QEMU ", qv); sub(/ \(.*/, "", qv)
	printf "<text x=\"10\" y=\"38\" fill=\"#555\">labels: instructions per operation over (1); minimum of %d boot(s); %s TCG %s</text>\n", boots, qv, qopts > svg
	for (val = pmin; val <= pmax + step / 2; val += step) {
		x = left + (val - pmin) / (pmax - pmin) * plotw
		printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/>\n", x, top - 5, x, top + nops * grouph, val == 0 ? "#000" : "#ddd" > svg
		printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%+g%%</text>\n", x, top + nops * grouph + 15, val > svg
	}
	for (o = 1; o <= nops; o++) {
		op = ops[o]; y = top + (o - 1) * grouph
		printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"12\">%s</text>\n", left - 8, y + ncfg * bar / 2 + 4, op > svg
		printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\" font-size=\"9\">(1): %.0f</text>\n", left - 8, y + ncfg * bar / 2 + 15, ns[1, op] > svg
		for (j = 1; j <= ncfg; j++) {
			c = cfgs[j]; d = ns[c, op] - ns[1, op]; p = d / ns[1, op] * 100
			x = left + (p - pmin) / (pmax - pmin) * plotw
			bx = x < x0 ? x : x0; bw = x < x0 ? x0 - x : x - x0
			printf "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>(%d) %s, %s: %+.1f instructions (%+.2f%%)</title></rect>\n", bx, y + (j - 1) * bar, bw < 0.5 ? 0.5 : bw, bar - 1, color[c], c, label[c], op, d, p > svg
			printf "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\">%+.0f</text>\n", (x > x0 ? x : x0) + 3, y + (j - 1) * bar + bar - 2, d > svg
		}
	}
	for (j = 1; j <= ncfg; j++) {
		c = cfgs[j]
		printf "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"10\" fill=\"%s\"/>\n", left + plotw + 15, top + (j - 1) * 18, color[c] > svg
		printf "<text x=\"%d\" y=\"%d\">(%d) %s</text>\n", left + plotw + 31, top + (j - 1) * 18 + 9, c, label[c] > svg
	}
	print "</svg>" > svg
}' "$raw"

echo "bench.sh: $outdir/results.md, results.csv, results.svg (${total_secs} s)" >&2
