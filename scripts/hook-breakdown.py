#!/usr/bin/env python3
"""Where the instructions of an attached BPF LSM program go, on one mprotect().

usage: hook-breakdown.py [-b BENCH_ATTACH] [-i INITRD] [-w WARMUP] [-n SAMPLES]
                         [-t TIMEOUT] [-r] <kernel build dir> <lsm> <outdir>

Boots <kernel build dir>/arch/x86/boot/bzImage twice with
scripts/run-guest.sh (QEMU TCG, the host's / as read-only root, nokaslr
norandmaps, and here no_timer_check), with -smp 1 and QEMU's gdbstub:
once with no program ("none"), once under bench_attach, which attaches an
allow-all lsm/file_mprotect program ("prog"). In the guest
selftests/bench/guest-breakdown.sh runs mprotect_loop
(selftests/bench/mprotect_loop.c, built into <outdir>): one page of its
own VMA at a marker address, mprotect()ed between PROT_READ and
PROT_READ|PROT_WRITE as lsm_bench's mprotect operation does.

gdb (this same file, run by gdb) puts a hardware breakpoint on
security_file_mprotect conditional on the VMA's vm_start being the marker,
lets WARMUP (default 100) such calls pass, then single-steps SAMPLES
(default 5) calls from their first instruction until they return to their
caller (the return address, at the entry's stack pointer + 8), recording
each instruction's address, stack pointer and text as the guest executes
it (runtime-patched code as it is). QEMU's single step masks interrupts
and timers (qqemu.sstep 0x7, checked), so every instruction belongs to the
call; a rep-prefixed string instruction is one step per iteration.
Addresses map to vmlinux symbols (nm) and source lines (addr2line -i);
outside vmlinux, to the guest's /proc/kallsyms [bpf] symbols, which the
guest prints once the program is attached: the trampoline image
(bpf_trampoline_*) and the BPF program (bpf_prog_*). Each boot must print
the vmlinux's banner (a kernel rebuilt meanwhile fails the run).

arm64: a build directory with arch/arm64/boot/Image and no bzImage is an
arm64 kernel's: it boots in qemu-system-aarch64 with the initramfs of make
initramfs ARCH=arm64 (KRSI_ARCH=arm64 for run-guest.sh; no
no_timer_check, which arm64 would pass to init), mprotect_loop is built
with aarch64-linux-gnu-gcc and gdb is gdb-multiarch. The breakpoint reads
vm_start through x0; a call ends when pc is x30 of its entry with sp as
at entry. Frames are pushed by bl/blr, and by the trampoline's "adr x30;
ret xN" into the traced function, and popped when pc reaches a frame's
return address (the trampoline's "ret x9" returns past two frames). The
nop's patched ftrace site ("mov x9, x30; bl <image>") is the nop's part,
as x86's __fentry__ call; arm64 6.12 has no thunks or static-call
trampolines (static calls load the function pointer in the caller).

Writes into <outdir>:
  none.txt, prog.txt  instructions per function (symbol) of one call, with
                      the total and the same call's parts
  delta.txt           prog - none per function and per part
  trace-none.txt, trace-prog.txt  each instruction of that call: symbol,
                      offset, source line, text, part
  breakdown.json      the figures, for scripts/breakdown-docs.py
  trace-<config>.raw, guest-<config>.log, gdb-<config>.log,
  run-<config>.out    the raw trace and logs
The sample tabulated is the first of those that executed the most frequent
sequence of instruction addresses; the files name any other sample and how
its functions differ (a pending reschedule adds a few instructions to
preempt_enable(), for instance).

Options: -b the bench_attach binary (default: <kernel build dir>/../bench/
bench_attach); -i arm64's initramfs (default: $KRSI_INITRD, else <kernel
build dir>/../initramfs.cpio.gz); -t seconds allowed per boot (default
1800); -r re-analyse the traces and logs already in <outdir>, without
booting.
"""
import argparse
import bisect
import collections
import json
import mmap
import os
import re
import shutil
import socket
import subprocess
import sys
import time

try:
    import gdb  # noqa: F401  (present only when gdb runs this file)
except ImportError:
    gdb = None

HOOK = "file_mprotect"
WRAPPER = "security_" + HOOK
NOP = "bpf_lsm_" + HOOK
MARKER = 0x7E5700000000
AGENT_ENV = "HOOK_BREAKDOWN_AGENT"
STEP_LIMIT = 100000
USAGE = ("usage: hook-breakdown.py [-b BENCH_ATTACH] [-i INITRD] [-w WARMUP] [-n SAMPLES] "
         "[-t TIMEOUT] [-r] <kernel build dir> <lsm> <outdir>")
ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
IMAGE = "trampoline image"
PROGRAM = "BPF program"
# Per architecture: the kernel image, tools, and the registers of the
# program counter, stack pointer, first argument and return address (none:
# on the stack); "ret_sp" is sp after the return less sp at entry.
ARCHS = {
    "x86_64": {"image": "arch/x86/boot/bzImage", "qemu": "qemu-system-x86_64", "gdb": "gdb",
               "gcc": "gcc", "pc": "rip", "sp": "rsp", "arg0": "rdi", "lr": None, "ret_sp": 8},
    "arm64": {"image": "arch/arm64/boot/Image", "qemu": "qemu-system-aarch64", "gdb": "gdb-multiarch",
              "gcc": "aarch64-linux-gnu-gcc", "pc": "pc", "sp": "sp", "arg0": "x0", "lr": "x30",
              "ret_sp": 0},
}

# Parts of a call, in the order of the tables. "wrapper" is split into
# wrapper, call and verdict by comparing the two configurations.
PARTS = [
    ("wrapper", "security.c wrapper and static LSMs"),
    ("call", "static key / call into the nop"),
    ("nop", "the nop itself (its patched __fentry__ call)"),
    ("image", "trampoline image body"),
    ("tramp_ref", "__bpf_tramp_enter/exit (percpu ref)"),
    ("prog_enter_exit", "__bpf_prog_enter*/__bpf_prog_exit* and callees"),
    ("nop_default", "the nop called from the image (default)"),
    ("program", "the BPF program"),
    ("verdict", "the verdict (security.c)"),
    ("other", "other"),
]
# Sub-parts of prog_enter_exit, by the source line of the enter/exit
# function (own instructions) or by the callee.
SUBPARTS = ["call/return, arguments", "RCU", "migrate_disable/enable",
            "preempt_disable/enable", "recursion counter", "run ctx", "stats"]
# The parts with sub-parts: the image by the calls it makes.
SUBPARTED = ["image", "prog_enter_exit"]


def die(msg):
    print(f"hook-breakdown: {msg}", file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- gdb side

def reg(frame, name):
    """A register as unsigned: gdb reads arm64's x30 as a signed long."""
    return int(frame.read_register(name)) & (1 << 64) - 1


def agent():
    """Run by gdb: step the marked calls, write them to the trace file."""
    p = json.loads(os.environ[AGENT_ENV])
    gdb.execute("set pagination off")
    gdb.execute("set confirm off")
    gdb.execute("set height 0")
    deadline = time.time() + 120
    while True:
        try:
            gdb.execute(f"target remote 127.0.0.1:{p['port']}")
            break
        except gdb.error:
            if time.time() > deadline:
                raise
            time.sleep(0.5)
    try:
        sstep = gdb.execute("maintenance packet qqemu.sstep", to_string=True)
        m = re.search(r'received: "(0x[0-9a-fA-F]+)"', sstep)
        if not m or int(m.group(1), 16) & 7 != 7:
            raise RuntimeError(f"QEMU single-step flags are not ENABLE|NOIRQ|NOTIMER: {sstep.strip()}")
        bp = gdb.Breakpoint(f"*{p['addr']:#x}", type=gdb.BP_HARDWARE_BREAKPOINT)
        r = ARCHS[p["arch"]]
        bp.condition = f"*(unsigned long *)${r['arg0']} == {p['marker']:#x}"
        bp.ignore_count = p["warmup"]
        inferior = gdb.selected_inferior()
        with open(p["trace"], "w") as out:
            out.write(f"sstep {m.group(1)}\n")
            for sample in range(p["samples"]):
                gdb.execute("continue")
                if not gdb.selected_inferior().pid:
                    raise RuntimeError(f"the guest ended after {sample} of {p['samples']} samples")
                frame = gdb.selected_frame()
                if frame.pc() != p["addr"]:
                    raise RuntimeError(f"stopped at {frame.pc():#x}, not at the breakpoint")
                bp.enabled = False
                arch = frame.architecture()
                sp = reg(frame, r["sp"])
                if r["lr"]:
                    ret = reg(frame, r["lr"])
                else:
                    ret = int.from_bytes(inferior.read_memory(sp, 8).tobytes(), "little")
                out.write(f"sample {sample} sp {sp:#x} ret {ret:#x}\n")
                for _ in range(STEP_LIMIT):
                    frame = gdb.selected_frame()
                    pc = reg(frame, r["pc"])
                    rsp = reg(frame, r["sp"])
                    if pc == ret and rsp == sp + r["ret_sp"]:
                        break
                    text = arch.disassemble(pc)[0]["asm"]
                    if p["arch"] != "x86_64":  # aarch64's operands follow a tab
                        text = text.replace("\t", " ")
                    out.write(f"{pc:#x} {rsp:#x} {text}\n")
                    gdb.execute("stepi", to_string=True)
                else:
                    raise RuntimeError(f"no return within {STEP_LIMIT} instructions")
                out.write("end\n")
                out.flush()
                bp.enabled = True
        bp.delete()
        gdb.execute("detach")
    except Exception:
        # Leave no guest stopped forever: end QEMU, then fail.
        try:
            gdb.execute("monitor quit")
        except gdb.error:
            pass
        raise


# ---------------------------------------------------------------- host side

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tail(path, n=15):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-n:])
    except OSError:
        return ""


def boot(cfg, a, loop, outdir, addr):
    """Boot one configuration, return (trace path, console log path)."""
    port = free_port()
    log = os.path.join(outdir, f"guest-{cfg}.log")
    trace = os.path.join(outdir, f"trace-{cfg}.raw")
    gdblog = os.path.join(outdir, f"gdb-{cfg}.log")
    runout = os.path.join(outdir, f"run-{cfg}.out")
    n = a.warmup + a.samples + 1000
    env = dict(os.environ)
    env.pop("KRSI_RESULTS", None)
    env["KRSI_QEMU_OPTS"] = f"-smp 1 -S -gdb tcp:127.0.0.1:{port}"
    if a.arch == "arm64":
        env["KRSI_ARCH"], env["KRSI_INITRD"] = "arm64", a.initrd
    else:
        # no_timer_check: 6.1's IO-APIC timer check panics ("IO-APIC + timer
        # doesn't work!") when a loaded host slows the TCG vCPU down.
        env["KRSI_CMDLINE"] = "no_timer_check"
    guest = [os.path.join(ROOT, "selftests/bench/guest-breakdown.sh"),
             a.bench_attach if cfg == "prog" else "none", loop, f"{MARKER:x}", str(n)]
    run = ["nice", "-n", "19", os.path.join(ROOT, "scripts/run-guest.sh"), a.image, log,
           str(a.timeout), a.lsm, "--"] + guest
    with open(runout, "w") as ro:
        qemu = subprocess.Popen(run, stdout=ro, stderr=subprocess.STDOUT, env=env)
    params = {"port": port, "addr": addr, "marker": MARKER, "warmup": a.warmup,
              "samples": a.samples, "trace": trace, "arch": a.arch}
    genv = dict(os.environ, **{AGENT_ENV: json.dumps(params)})
    with open(gdblog, "w") as gl:
        try:
            g = subprocess.run(["nice", "-n", "19", ARCHS[a.arch]["gdb"], "-nx", "-batch", "-x",
                                os.path.realpath(__file__)], stdout=gl, stderr=subprocess.STDOUT,
                               env=genv, timeout=a.timeout + 60, check=False)
            grc = g.returncode
        except subprocess.TimeoutExpired:
            grc = "timeout"
    try:
        rc = qemu.wait(timeout=a.timeout + 120)
    except subprocess.TimeoutExpired:
        qemu.kill()
        rc = "timeout"
    errors = [line for line in tail(gdblog, 200).splitlines()
              if re.search(r"Error|Traceback|error:|Python Exception", line)]
    if rc != 0:
        die(f"the guest of '{cfg}' failed (status {rc}), see {runout}, {log} and {gdblog}:\n{tail(runout)}")
    if grc != 0 or errors:
        die(f"gdb failed for '{cfg}' (status {grc}), see {gdblog}:\n{tail(gdblog)}")
    return trace, log


def read_trace(path):
    """[(pc, rsp, asm)] per sample, and the single-step flags."""
    samples, cur, sstep = [], None, None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("sstep "):
                sstep = line.split()[1]
            elif line.startswith("sample "):
                cur = []
            elif line == "end":
                samples.append(cur)
                cur = None
            elif cur is not None:
                pc, rsp, asm = line.split(" ", 2)
                cur.append((int(pc, 16), int(rsp, 16), asm))
    if not samples:
        die(f"no complete sample in {path}")
    return samples, sstep


def read_console(log):
    """The guest's [bpf] kallsyms [(addr, name)], its environment line,
    its kernel's banner."""
    ksyms, env, banner = [], "", ""
    with open(log, errors="replace") as f:
        for line in f:
            line = line.replace("\r", "").rstrip("\n")
            m = re.match(r"breakdown-ksym: ([0-9a-f]+) \S+ (\S+)", line)
            if m:
                ksyms.append((int(m.group(1), 16), m.group(2)))
            elif line.startswith("breakdown-env: "):
                env = line[len("breakdown-env: "):]
            elif not banner and "Linux version " in line:
                banner = line[line.index("Linux version "):].strip()
    return sorted(ksyms), env, banner


def vmlinux_banner(vmlinux):
    """linux_banner of the vmlinux: the line the booted kernel prints
    first, to tell that the bzImage is this vmlinux's."""
    with open(vmlinux, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        at = m.find(b"Linux version ")
        while at >= 0:
            end = m.find(b"\n", at, at + 512)
            text = m[at:end if end > 0 else at + 512].split(b"\0")[0].decode(errors="replace")
            if re.search(r" #\d+ ", text):
                return text.strip()
            at = m.find(b"Linux version ", at + 1)
    die(f"no Linux version banner in {vmlinux}")


class Symbols:
    """vmlinux text symbols from nm, and the guest's BPF symbols."""

    def __init__(self, vmlinux):
        out = subprocess.run(["nm", "-n", "-S", "--defined-only", vmlinux],
                             capture_output=True, text=True, check=True).stdout
        self.starts, self.syms = [], []
        for line in out.splitlines():
            f = line.split()
            if len(f) == 4 and f[2] in "tTwW":
                start, size, name = int(f[0], 16), int(f[1], 16), f[3]
            elif len(f) == 3 and f[1] in "tTwW":
                start, size, name = int(f[0], 16), None, f[2]
            else:
                continue
            self.starts.append(start)
            self.syms.append((start, size, name))
        self.bpf = []

    def addr(self, name):
        for start, _, n in self.syms:
            if n == name:
                return start
        die(f"{name} is not a text symbol of the vmlinux")

    def label(self, pc):
        """(function label, offset), the label of BPF code being IMAGE or
        PROGRAM; None outside every known symbol."""
        i = bisect.bisect_right(self.starts, pc) - 1
        # A sized symbol that covers pc, among the nearest below it (aliases
        # and unsized labels share addresses); else the nearest symbol, up
        # to the next address that has one.
        for j in range(i, max(i - 16, -1), -1):
            start, size, name = self.syms[j]
            if size and pc < start + size:
                return name, pc - start
        if i >= 0:
            start, _, name = self.syms[i]
            nxt = bisect.bisect_right(self.starts, start)
            if nxt < len(self.starts) and pc < self.starts[nxt]:
                return name, pc - start
        bpf = [(s, n) for s, n in self.bpf if s <= pc]
        if bpf and pc - bpf[-1][0] < 16384:  # images of 6.1 series: 8 KiB
            s, n = bpf[-1]
            if n.startswith("bpf_trampoline_"):
                return IMAGE, pc - s
            if n.startswith("bpf_prog_"):
                return PROGRAM, pc - s
            return n, pc - s
        return None


def source_lines(vmlinux, pcs):
    """pc -> [(function, file:line)] inline chain, innermost first."""
    pcs = sorted(set(pcs))
    if not pcs:
        return {}
    out = subprocess.run(["addr2line", "-f", "-i", "-a", "-e", vmlinux] + [f"{p:#x}" for p in pcs],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    res, cur, i = {}, None, 0
    while i < len(out):
        if re.match(r"^0x[0-9a-f]+$", out[i]):
            cur = int(out[i], 16)
            res[cur] = []
            i += 1
            continue
        func, loc = out[i], out[i + 1] if i + 1 < len(out) else "?"
        loc = re.sub(r" \(discriminator \d+\)$", "", loc)
        res[cur].append((func, loc))
        i += 2
    return res


def read_source_line(loc, cache):
    m = re.match(r"^(.*):(\d+)$", loc)
    if not m:
        return ""
    path, n = m.group(1), int(m.group(2))
    if path not in cache:
        try:
            with open(path, errors="replace") as f:
                cache[path] = f.read().split("\n")
        except OSError:
            cache[path] = []
    lines = cache[path]
    return lines[n - 1].strip() if 0 < n <= len(lines) else ""


def is_thunk(sym):
    return sym.startswith(("__x86_indirect_thunk", "__x86_return_thunk", "__SCT__",
                           "__x86_indirect_call_thunk", "__x86_indirect_jump_thunk"))


def subpart(sym, own_line):
    """Sub-part of __bpf_prog_enter*/exit*: by callee, or by the source
    line of the enter/exit function's own instruction."""
    text = own_line or ""
    probe = text if sym.startswith(("__bpf_prog_enter", "__bpf_prog_exit")) else sym
    if "rcu" in probe:
        return "RCU"
    if "migrate" in probe:
        return "migrate_disable/enable"
    if "preempt" in probe:
        return "preempt_disable/enable"
    if "active" in probe:
        return "recursion counter"
    if "stats" in probe or "start_time" in probe:
        return "stats"
    if "run_ctx" in probe:
        return "run ctx"
    if sym.startswith(("__bpf_prog_enter", "__bpf_prog_exit")):
        return "call/return, arguments"
    return sym


def analyse(insns, syms, vmlinux, arch="x86_64"):
    """Annotated instructions of a sample: dicts with pc, sym, off, asm,
    part, sub, src (outermost inline frame's line), srctext, calls (the
    instruction transfers into a new frame)."""
    labels = []
    for pc, _, _ in insns:
        lab = syms.label(pc)
        labels.append(lab if lab else (f"unknown {pc:#x}", 0))
    vm_pcs = [pc for (pc, _, _), (sym, _) in zip(insns, labels) if sym not in (IMAGE, PROGRAM)]
    src = source_lines(vmlinux, vm_pcs)
    cache = {}
    # Frames by stack pointer: a call pushes a frame whose entry sp is the
    # callee's first sp; a frame ends when sp rises above it; a transfer
    # into another symbol without a call (tail call, thunk) renames the
    # frame; each frame keeps the symbols it went through.
    # arm64 has no pushed return address: frames by return address instead
    # (arm64_call()).
    frames = [{"entry": insns[0][1], "syms": [labels[0][0]], "ret": None}]
    out = []
    lr = None
    for i, ((pc, rsp, asm), (sym, off)) in enumerate(zip(insns, labels)):
        if arch == "arm64":
            ret, lr = arm64_call(insns[i - 1] if i else None, lr)
            if ret is None:
                back = [d for d in range(1, len(frames)) if frames[d]["ret"] == pc]
                if back:
                    del frames[back[-1]:]
            else:
                out[-1]["calls"] = True
            called = ret is not None
        else:
            while len(frames) > 1 and rsp > frames[-1]["entry"]:
                frames.pop()
            called = i and insns[i - 1][2].startswith("call") and rsp == insns[i - 1][1] - 8
            ret = None
        if called:
            frames.append({"entry": rsp, "syms": [sym], "ret": ret})
        elif sym != frames[-1]["syms"][-1]:
            frames[-1]["syms"].append(sym)
        stack = [(f, len(f["syms"]) - 1) for f in frames]
        chain = src.get(pc, [])
        loc = chain[-1][1] if chain else ""
        out.append({"pc": pc, "sym": sym, "off": off, "asm": asm, "stack": stack,
                    "calls": arch != "arm64" and asm.startswith("call"),
                    "src": loc, "srctext": read_source_line(loc, cache) if loc else ""})
    for ins in out:
        ins["part"], ins["sub"] = classify(ins)
        del ins["stack"]
    image_segments(out, arch)
    return out


ARM64_BL = re.compile(r"^blr?(aa|ab|aaz|abz)?\s")
ARM64_ADR_LR = re.compile(r"^adr\s+(x30|lr),\s*#?(0x[0-9a-f]+)")
ARM64_JUMP_REG = re.compile(r"^(ret|br)\s+x(\d+)")


def arm64_call(prev, lr):
    """(return address of the frame that pc enters, or None; x30 set by
    "adr x30" and not used yet). Calls are bl/blr, and the trampoline's
    call of the traced function: "adr x30, <return>" then "ret x10"."""
    if prev is None:
        return None, lr
    ppc, _, pasm = prev
    if ARM64_BL.match(pasm):
        return ppc + 4, None
    m = ARM64_JUMP_REG.match(pasm)
    if m and lr is not None and m.group(2) != "30":
        return lr, None
    m = ARM64_ADR_LR.match(pasm)
    if m:
        return None, int(m.group(2), 16)
    return None, lr


ARG_WRITE = re.compile(r"^(mov\w*|lea\w*|xor\w*)\s.*,%(rdi|edi|rsi|esi|rdx|edx|rcx|ecx|r8d?|r9d?)$")
# arm64: the argument registers, and the call's target (x10) and return
# address (x30) that the trampoline loads just before blr/ret.
ARG_WRITE_ARM64 = re.compile(r"^(mov[zkn]?|add|sub|ldr|ldp|adrp?|orr)\s+([xw][0-7]|x10|x30|lr),")


def image_segments(insns, arch="x86_64"):
    """Sub-parts of the image's own instructions: each run of them up to
    and including a call is "to <callee>", the last run "return". Each
    call, with the instructions just before it that load its argument
    registers, also gets "call_of" <callee>."""
    run = []
    for k, i in enumerate(insns):
        i.setdefault("call_of", "")
        if i["part"] != "image" or i["sym"] != IMAGE:
            continue
        run.append(i)
        if i["calls"] and k + 1 < len(insns):
            callee = insns[k + 1]
            name = {"nop_default": "the nop (default)", "program": "the program"}.get(callee["part"], callee["sym"])
            for r in run:
                r["sub"] = f"to {name}"
            i["call_of"] = name
            for r in reversed(run[:-1]):
                if not (ARG_WRITE_ARM64 if arch == "arm64" else ARG_WRITE).match(r["asm"]):
                    break
                r["call_of"] = name
            run = []
    for r in run:
        r["sub"] = "return"


def effective(frame, j):
    """The j-th symbol of a frame; a thunk counts as the function it leads
    to (call thunks, "call:<function>") or comes from (the return thunk)."""
    hist = frame["syms"]
    sym = hist[j]
    if not is_thunk(sym):
        return sym
    if sym.startswith("__x86_return_thunk"):
        prev = [s for s in hist[:j] if not is_thunk(s)]
        return prev[-1] if prev else sym
    nxt = [s for s in hist[j + 1:] if not is_thunk(s)]
    return ("call:" + nxt[0]) if nxt else sym


def classify(ins):
    """(part, sub-part) of an instruction: the innermost function of its
    call stack that defines a part, looking through tail calls (a frame's
    earlier symbols) before the callers; a function no part claims belongs
    to the wrapper's part (static LSMs and what they call)."""
    stack = ins["stack"]
    for depth in range(len(stack) - 1, -1, -1):
        frame, k = stack[depth]
        for j in range(k, -1, -1):
            own = depth == len(stack) - 1 and j == k
            eff = effective(frame, j)
            if eff == "call:" + NOP:
                return "call", ""
            if eff.startswith("call:"):
                eff = eff[5:]
            if eff == PROGRAM:
                return "program", ""
            if eff == IMAGE:
                return "image", ""
            if eff in ("__bpf_tramp_enter", "__bpf_tramp_exit"):
                return "tramp_ref", ""
            if eff.startswith(("__bpf_prog_enter", "__bpf_prog_exit")):
                return "prog_enter_exit", subpart(eff if own else ins["sym"],
                                                  ins["srctext"] if own else "")
            if eff == NOP:
                parent = stack[depth - 1][0]["syms"][stack[depth - 1][1]] if depth else ""
                return ("nop_default" if parent == IMAGE else "nop"), ""
            if eff == WRAPPER:
                return ("wrapper_own" if own and ins["sym"] == WRAPPER else "wrapper"), ""
    return "wrapper", ""


def split_wrapper(none, prog):
    """Split the wrapper's own instructions of each configuration into
    wrapper, call and verdict: the instructions that prog executes more
    often than none, at an address prog first reaches before its call into
    the nop, are the call; after it, the verdict."""
    cn = collections.Counter(i["pc"] for i in none if i["part"] == "wrapper_own")
    cp = collections.Counter(i["pc"] for i in prog if i["part"] == "wrapper_own")
    first_bpf = next((k for k, i in enumerate(prog) if i["part"] not in ("wrapper_own", "wrapper")),
                     len(prog))
    first = {}
    for k, i in enumerate(prog):
        first.setdefault(i["pc"], k)
    extra = {pc: cp[pc] - cn[pc] for pc in cp if cp[pc] > cn[pc]}
    # Mark the last `extra` executions of each such address in prog.
    left = dict(extra)
    for i in reversed(prog):
        if i["part"] == "wrapper_own" and left.get(i["pc"], 0) > 0:
            left[i["pc"]] -= 1
            i["part"] = "call" if first[i["pc"]] < first_bpf else "verdict"
    for i in none + prog:
        if i["part"] == "wrapper_own":
            i["part"] = "wrapper"


def per_function(insns):
    c = collections.Counter(i["sym"] for i in insns)
    order = list(dict.fromkeys(i["sym"] for i in insns))
    return [(s, c[s]) for s in order]


def per_part(insns):
    """Instructions per part, and per sub-part of the parts that have them
    (in order of first execution)."""
    c = collections.Counter(i["part"] for i in insns)
    subs = {}
    for part in SUBPARTED:
        order = list(dict.fromkeys(i["sub"] for i in insns if i["part"] == part))
        sc = collections.Counter(i["sub"] for i in insns if i["part"] == part)
        subs[part] = {k: sc[k] for k in order}
    return {k: c.get(k, 0) for k, _ in PARTS}, subs


def table(rows, headers):
    w = [max(len(str(r[c])) for r in rows + [headers]) for c in range(len(headers))]
    fmt = lambda r: "  ".join(str(v).ljust(w[c]) if c == 0 else str(v).rjust(w[c])  # noqa: E731
                              for c, v in enumerate(r)).rstrip()
    return "\n".join([fmt(headers), fmt(["-" * x for x in w])] + [fmt(r) for r in rows]) + "\n"


def write_trace(path, insns):
    with open(path, "w") as f:
        f.write("# instruction  part  symbol+offset  source  text\n")
        for n, i in enumerate(insns, 1):
            part = i["part"] + (f"/{i['sub']}" if i["sub"] else "")
            src = os.path.basename(i["src"]) if i["src"] else "-"
            call = f"  [arguments and call of {i['call_of']}]" if i["call_of"] else ""
            f.write(f"{n:4d}  {part:<40} {i['sym']}+{i['off']:#x}  {src}  {i['asm']}{call}\n")


def idx_note(c):
    if not c["sample_notes"]:
        return f"{c['tabulated_sample']} (every sample executed the same instruction addresses)"
    return f"{c['tabulated_sample']} (the most frequent sequence of instruction addresses)"


def choose(samples, syms):
    """The sample to tabulate: the first of those whose instruction
    addresses are the most frequent sequence; and a note per sample that
    differs from it, with its functions' differences."""
    seqs = [tuple(pc for pc, _, _ in s) for s in samples]
    freq = collections.Counter(seqs)
    idx = next(k for k, q in enumerate(seqs) if freq[q] == max(freq.values()))

    def funcs(seq):
        return collections.Counter((syms.label(pc) or (f"unknown {pc:#x}", 0))[0] for pc in seq)
    notes, ref = [], funcs(seqs[idx])
    for k, q in enumerate(seqs):
        if q == seqs[idx]:
            continue
        f = funcs(q)
        d = ", ".join(f"{x} {f[x] - ref[x]:+d}" for x in dict.fromkeys(list(f) + list(ref)) if f[x] != ref[x])
        d = d or "same functions, other addresses"
        notes.append(f"sample {k}: {len(q)} instructions ({len(q) - len(seqs[idx]):+d}: {d})")
    return idx, notes


def main():
    ap = argparse.ArgumentParser(usage=USAGE[len("usage: "):])
    ap.error = lambda msg: die(f"{msg}; {USAGE}")
    ap.add_argument("-b", "--bench-attach")
    ap.add_argument("-i", "--initrd")
    ap.add_argument("-w", "--warmup", type=int, default=100)
    ap.add_argument("-n", "--samples", type=int, default=5)
    ap.add_argument("-t", "--timeout", type=int, default=1800)
    ap.add_argument("-r", "--reuse", action="store_true")
    ap.add_argument("kdir")
    ap.add_argument("lsm")
    ap.add_argument("outdir")
    if len(sys.argv) == 1:
        die(USAGE)
    a = ap.parse_args()
    vmlinux = os.path.join(a.kdir, "vmlinux")
    # The architecture is the build directory's: an arm64 Image without a bzImage.
    a.arch = "x86_64"
    if not os.path.exists(os.path.join(a.kdir, ARCHS["x86_64"]["image"])) \
            and os.path.exists(os.path.join(a.kdir, ARCHS["arm64"]["image"])):
        a.arch = "arm64"
    a.image = os.path.join(a.kdir, ARCHS[a.arch]["image"])
    for f in (vmlinux, a.image):
        if not os.access(f, os.R_OK):
            die(f"{f} not found: <kernel build dir> must be a built x86-64 or arm64 kernel's output directory")
    if a.arch == "arm64" and not a.reuse:
        a.initrd = os.path.realpath(a.initrd or os.environ.get("KRSI_INITRD")
                                    or os.path.join(a.kdir, "..", "initramfs.cpio.gz"))
        if not os.access(a.initrd, os.R_OK):
            die(f"{a.initrd} not found: build it (make initramfs ARCH=arm64) or give -i")
    if not re.fullmatch(r"[a-z_]+(,[a-z_]+)*", a.lsm) or "bpf" not in a.lsm.split(","):
        die(f"bad lsm '{a.lsm}': a comma-separated lsm= list that includes bpf")
    a.bench_attach = os.path.realpath(a.bench_attach or os.path.join(a.kdir, "..", "bench", "bench_attach"))
    if not os.access(a.bench_attach, os.X_OK):
        die(f"{a.bench_attach} not found: build it (make -C selftests/bench) or give -b")
    if a.warmup < 0 or a.samples < 1:
        die("-w wants 0 or more, -n 1 or more")
    r = ARCHS[a.arch]
    for tool in (r["gdb"], r["qemu"], "nm", "addr2line", r["gcc"]):
        if not shutil.which(tool):
            die(f"{tool} not found: install it (apt-get install gdb qemu-system-x86 binutils gcc; "
                "arm64: gdb-multiarch qemu-system-arm gcc-aarch64-linux-gnu)")
    if a.reuse and not os.path.isdir(a.outdir):
        die(f"-r: {a.outdir} is not a directory of an earlier run")
    os.makedirs(a.outdir, exist_ok=True)
    outdir = os.path.realpath(a.outdir)
    loop = os.path.join(outdir, "mprotect_loop")
    if not a.reuse:
        subprocess.run(["nice", "-n", "19", r["gcc"], "-O2", "-Wall", "-static",
                        os.path.join(ROOT, "selftests/bench/mprotect_loop.c"), "-o", loop], check=True)
    syms = Symbols(vmlinux)
    addr = syms.addr(WRAPPER)
    banner = vmlinux_banner(vmlinux)

    res = {"kernel": os.path.realpath(a.kdir), "lsm": a.lsm, "warmup": a.warmup,
           "samples": a.samples, "configs": {}}
    if a.arch != "x86_64":
        res["arch"] = a.arch
    insns = {}
    for cfg in ("none", "prog"):
        if a.reuse:
            trace, log = (os.path.join(outdir, f) for f in (f"trace-{cfg}.raw", f"guest-{cfg}.log"))
            if not (os.path.exists(trace) and os.path.exists(log)):
                die(f"-r: {trace} or {log} missing: run without -r first")
        else:
            print(f"hook-breakdown: {cfg}: booting {a.image}", flush=True)
            trace, log = boot(cfg, a, loop, outdir, addr)
        samples, sstep = read_trace(trace)
        ksyms, env, booted = read_console(log)
        if booted != banner:
            die(f"'{cfg}' booted '{booted}', not the vmlinux's '{banner}': was the kernel rebuilt during the run?")
        syms.bpf = ksyms
        idx, notes = choose(samples, syms)
        insns[cfg] = analyse(samples[idx], syms, vmlinux, a.arch)
        res["configs"][cfg] = {"guest": env, "sstep": sstep, "ksyms": [[f"{s:#x}", n] for s, n in ksyms],
                               "sample_counts": [len(x) for x in samples], "tabulated_sample": idx,
                               "sample_notes": notes}
    if vmlinux_banner(vmlinux) != banner:
        die(f"{vmlinux} changed during the run (now '{vmlinux_banner(vmlinux)}')")
    res["banner"] = banner
    split_wrapper(insns["none"], insns["prog"])

    head = {}
    for cfg in ("none", "prog"):
        c = res["configs"][cfg]
        c["functions"] = per_function(insns[cfg])
        c["total"] = len(insns[cfg])
        c["parts"], c["subparts"] = per_part(insns[cfg])
        c["image_calls"] = dict(collections.Counter(i["call_of"] for i in insns[cfg] if i["call_of"]))
        c["trace"] = [{k: i[k] for k in ("sym", "off", "asm", "part", "sub", "call_of", "src")} for i in insns[cfg]]
        write_trace(os.path.join(outdir, f"trace-{cfg}.txt"), insns[cfg])
        what = "no program" if cfg == "none" else f"one allow-all lsm/{HOOK} program"
        head[cfg] = (f"# {WRAPPER}(), entry to return, one call: {what}\n"
                     f"# kernel: {res['kernel']}\n# guest: {c['guest']}\n"
                     f"# qqemu.sstep: {c['sstep']}; warm-up calls: {a.warmup}; "
                     f"instructions per sample: {c['sample_counts']}; tabulated: sample {idx_note(c)}\n"
                     + "".join(f"# {x}\n" for x in c["sample_notes"])
                     + "".join(f"# kallsyms: {s} {n}\n" for s, n in c["ksyms"]))
        with open(os.path.join(outdir, f"{cfg}.txt"), "w") as f:
            f.write(head[cfg] + "\n")
            f.write(table([[s, n] for s, n in c["functions"]] + [["total", c["total"]]],
                          ["function", "instructions"]))
            f.write("\n" + table([[t, c["parts"][k]] for k, t in PARTS if c["parts"][k]], ["part", "instructions"]))
    n, p = res["configs"]["none"], res["configs"]["prog"]
    fn_n, fn_p = dict(n["functions"]), dict(p["functions"])
    order = list(dict.fromkeys([s for s, _ in p["functions"]] + [s for s, _ in n["functions"]]))
    rows = [[s, fn_n.get(s, 0), fn_p.get(s, 0), f"{fn_p.get(s, 0) - fn_n.get(s, 0):+d}"] for s in order]
    rows.append(["total", n["total"], p["total"], f"{p['total'] - n['total']:+d}"])
    prow = [[t, n["parts"][k], p["parts"][k], f"{p['parts'][k] - n['parts'][k]:+d}"]
            for k, t in PARTS if n["parts"][k] or p["parts"][k]]
    srows = {}
    for part in SUBPARTED:
        sn, sp = n["subparts"][part], p["subparts"][part]
        subs = list(dict.fromkeys((list(SUBPARTS) if part == "prog_enter_exit" else []) + list(sp) + list(sn)))
        srows[part] = [[x, sn.get(x, 0), sp.get(x, 0), f"{sp.get(x, 0) - sn.get(x, 0):+d}"]
                       for x in subs if sn.get(x, 0) or sp.get(x, 0)]
    crow = [[x, v] for x, v in p["image_calls"].items()]
    res["delta"] = p["total"] - n["total"]
    with open(os.path.join(outdir, "delta.txt"), "w") as f:
        f.write(f"# {WRAPPER}(): one allow-all lsm/{HOOK} program minus no program\n")
        f.write(f"# kernel: {res['kernel']}\n# lsm= {a.lsm}\n\n")
        f.write(table(rows, ["function", "none", "prog", "delta"]))
        f.write("\n" + table(prow, ["part", "none", "prog", "delta"]))
        if crow:
            f.write("\nThe image's calls, with the instructions just before each that load its arguments\n"
                    "(one program; these are counted in the image's sub-parts above):\n")
            f.write(table(crow, ["call of", "instructions"]))
        for part in SUBPARTED:
            if srows[part]:
                f.write(f"\n{dict(PARTS)[part]}, by sub-part:\n")
                f.write(table(srows[part], ["sub-part", "none", "prog", "delta"]))
    with open(os.path.join(outdir, "breakdown.json"), "w") as f:
        json.dump(res, f, indent=1)
    print(open(os.path.join(outdir, "delta.txt")).read(), end="")


if __name__ == "__main__":
    if gdb is not None:
        agent()
    else:
        main()
