#!/usr/bin/env python3
"""Count the instructions of an LSM hook wrapper on its path with no program.

usage: hook-path.py [-v] <security.o> <function>...

Follows each function of security/security.o from the instruction after its
__fentry__ call: static-key NOPs of the BPF LSM (bpf_lsm_hook_keys) fall
through, those of security.c's own keys (in .data..ro_after_init) jump, as
they do at run time for a hook no static LSM implements; a hook list head
loaded from memory is NULL. Stops at a return, a tail call or a jump out of
the function. A branch on anything else ends the path there, with a note:
such counts compare kernels only up to that branch.
"""
import re
import subprocess
import sys


def jump_table(obj):
    """code offset -> (target offset, key symbol) from __jump_table."""
    # No __jump_table section (no static key in the object): empty table.
    out = subprocess.run(['objdump', '-r', '-j', '__jump_table', obj],
                         capture_output=True, text=True, check=False).stdout
    rel = re.findall(r'^[0-9a-f]+ R_X86_64_PC\d+\s+(\S+)$', out, re.M)
    table = {}
    for i in range(0, len(rel) - 2, 3):
        code = int(rel[i].split('+')[1], 16)
        target = int(rel[i + 1].split('+')[1], 16)
        table[code] = (target, rel[i + 2])
    return table


def disassemble(obj, func):
    out = subprocess.run(['objdump', '-dr', '--no-show-raw-insn', obj,
                          '--disassemble=' + func],
                         capture_output=True, text=True, check=True).stdout
    insns, inside = [], False
    for line in out.splitlines():
        if re.match(r'^[0-9a-f]+ <%s>:' % re.escape(func), line):
            inside = True
            continue
        if not inside:
            continue
        if not line.strip():
            break
        reloc = re.match(r'^\s*[0-9a-f]+: R_X86_64\w+\s+(\S+)', line)
        if reloc and insns:
            addr, text = insns[-1]
            insns[-1] = (addr, text + ' @' + reloc.group(1))
            continue
        m = re.match(r'^\s*([0-9a-f]+):\s+(.*)$', line)
        if m:
            insns.append((int(m.group(1), 16), ' '.join(m.group(2).split())))
    return insns


def walk(insns, table):
    index = {addr: i for i, (addr, _) in enumerate(insns)}
    null, zf, path, i = set(), None, [], 1
    while i < len(insns) and len(path) < 200:
        addr, text = insns[i]
        path.append(text)
        if text.startswith('ret'):
            break
        if addr in table and 'ro_after_init' in table[addr][1]:
            path[-1] += '    [security.c key off: jump]'
            i = index[table[addr][0]]
            continue
        m = re.match(r'mov 0x0\(%rip\),%(\w+)', text)
        if m:
            null.add(m.group(1))
            i += 1
            continue
        m = re.match(r'test %(\w+),%(\w+)$', text)
        if m and m.group(1) == m.group(2):
            zf = m.group(1) in null
            i += 1
            continue
        if re.match(r'(and|or|xor|add|sub|cmp|test|inc|dec|neg|sh|sa|bt)', text):
            zf = None    # flags from something other than a list head
        m = re.match(r'(j\w+) ([0-9a-f]+)', text)
        if m:
            taken = {'jmp': True, 'je': zf, 'jne': None if zf is None else not zf}.get(m.group(1))
            if taken is None:
                path.append('(cannot decide this branch: path ends)')
                break
            if not taken:
                i += 1
                continue
            target = int(m.group(2), 16)
            if '@' in text or target not in index:
                break
            i = index[target]
            continue
        if text.startswith('call'):
            path.append('(a call on the path: path ends)')
            break
        i += 1
    return path


def main(argv):
    verbose = bool(argv) and argv[0] == '-v'
    args = argv[1:] if verbose else argv
    if len(args) < 2:
        sys.exit('usage: hook-path.py [-v] <security.o> <function>...')
    obj = args[0]
    table = jump_table(obj)
    for func in args[1:]:
        insns = disassemble(obj, func)
        if not insns:
            sys.exit(f'hook-path: {func} not found in {obj}; give a function of security.c')
        path = walk(insns, table)
        count = sum(1 for p in path if not p.startswith('('))
        note = ' (up to a branch on the arguments)' if path[-1].startswith('(cannot') else ''
        print(f'{func:32} {count}{note}')
        if verbose:
            for p in path:
                print('    ' + p)


if __name__ == '__main__':
    main(sys.argv[1:])
