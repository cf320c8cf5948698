"""Where inside one JIT-compiled kernel the samples of a perf recording fall, instruction by
instruction.

``perf annotate`` cannot disassemble JIT code: the code exists only in the profiled process.
``benchmarks/profile_games.py --code FILE`` saves each mapped function's machine code; this
script disassembles the kernel named by ``--function`` (a substring of its mangled name) with
``objdump``, counts the samples of ``perf script`` at each instruction, and prints the
instructions with their share, the hottest stretches marked, so a hot loop can be matched to
the source (the loads of ``ent.x[e]`` fields, calls to ``NRT_incref``, ...).

    python benchmarks/profile_games.py --games 15000 --code /tmp/jit.code &   # note the pid
    perf record -F 2000 -p PID -o /tmp/g.perf -- sleep 25
    perf script -i /tmp/g.perf -F ip > /tmp/g.ips
    python benchmarks/annotate.py /tmp/g.ips /tmp/perf-PID.map /tmp/jit.code --function _legal
"""

from __future__ import annotations

import argparse
import bisect
import collections
import os
import re
import subprocess
import tempfile

from nrt_callers import read_map, symbol  # this folder's perf-map reader


def _read_code(path):
    code = {}
    with open(path, "rb") as f:
        data = f.read()
    i = 0
    while i < len(data):
        address = int.from_bytes(data[i:i + 8], "little")
        size = int.from_bytes(data[i + 8:i + 16], "little")
        code[address] = data[i + 16:i + 16 + size]
        i += 16 + size
    return code


def _disassemble(address, blob):
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
        f.write(blob)
    try:
        out = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64",
                              f"--adjust-vma={address:#x}", "--no-show-raw-insn", f.name],
                             capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(f.name)
    rows = []
    for line in out.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(.*)", line)
        if m:
            rows.append((int(m.group(1), 16), m.group(2).strip()))
    return rows


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ips", help="`perf script -F ip` output")
    ap.add_argument("perf_map")
    ap.add_argument("code", help="profile_games.py --code output")
    ap.add_argument("--function", required=True, help="a substring of the kernel's name")
    ap.add_argument("--min", type=float, default=0.2, help="print instructions above this %%")
    args = ap.parse_args(argv)
    starts_map, rows = read_map(args.perf_map)
    hits = [r for r in rows if args.function in r[2]]
    if not hits:
        raise SystemExit(f"no mapped function contains {args.function!r}")
    address, size, name = hits[0]
    counts = collections.Counter()
    total = 0
    with open(args.ips) as f:
        for line in f:
            try:
                ip = int(line.strip(), 16)
            except ValueError:
                continue
            total += 1
            if address <= ip < address + size:
                counts[ip] += 1
    inside = sum(counts.values())
    print(f"{name[:100]}\n{inside} of {total} samples ({100 * inside / max(total, 1):.1f} %)")
    insns = _disassemble(address, _read_code(args.code)[address])
    starts = [a for a, _ in insns]
    per = collections.Counter()
    for ip, k in counts.items():
        j = bisect.bisect_right(starts, ip) - 1
        per[starts[max(j, 0)]] += k

    def callee(text):  # the JIT code calls through a register loaded by movabs
        m = re.search(r"movabs \$0x([0-9a-f]+)", text)
        where = symbol(starts_map, rows, int(m.group(1), 16)) if m else None
        return f"  -> {where}" if where else ""

    for a, text in insns:
        text += callee(text)
        share = 100 * per[a] / max(inside, 1)
        flag = "#" * min(int(share), 40)
        if share >= args.min or "->" in text:
            print(f"{a - address:6x} {share:5.1f} {flag:<10s} {text[:90]}")


if __name__ == "__main__":
    main()
