"""Which kernels call Numba's reference counting (``NRT_incref`` / ``NRT_decref``) the most.

A flat ``perf`` profile of the game loop shows about a fifth of the time inside those two tiny
functions, and, since the JIT-compiled code keeps no frame pointers, no call graph says who
calls them. Both are leaf functions that push nothing: at a sample inside one, the word on top
of the stack is the return address into its caller. ``perf record --call-graph dwarf`` stores
that stack with every sample, so this script reads the raw samples (``perf report -D``), takes
that word for each sample in ``NRT_incref`` / ``NRT_decref``, and names the kernel it falls in
with the perf map ``benchmarks/profile_games.py`` writes.

    python benchmarks/profile_games.py --games 30000 &        # note its pid; wait for the map
    perf record -F 999 --call-graph dwarf,2048 -p PID -o /tmp/nrt.perf -- sleep 25
    perf report -i /tmp/nrt.perf -D > /tmp/nrt.dump
    python benchmarks/nrt_callers.py /tmp/nrt.dump /tmp/perf-PID.map

Prints each caller's share of all samples (so the numbers add up to the two functions' share
of the profile). This is how the field reads hoisted out of ``_legal``, greedy and the water
search were found (docs/performance.md).
"""

from __future__ import annotations

import argparse
import bisect
import collections
import re
import struct

NRT = ("NRT_incref", "NRT_decref")


def read_map(path: str):
    """(start addresses, entries) of a perf map, sorted by address."""
    entries = []
    with open(path) as f:
        for line in f:
            address, size, name = line.split(" ", 2)
            entries.append((int(address, 16), int(size, 16), name.strip()))
    entries.sort()
    return [e[0] for e in entries], entries


def demangle(name: str) -> str:
    """``sim.engine.rules.legal._legal`` from Numba's Itanium-style mangled name."""
    if not name.startswith("_ZN"):
        return name
    parts, i = [], 3
    while i < len(name) and name[i].isdigit():
        j = i
        while name[j].isdigit():
            j += 1
        k = int(name[i:j])
        parts.append(name[j:j + k])
        i = j + k
    return ".".join(parts)


def symbol(starts, entries, address: int) -> str | None:
    i = bisect.bisect_right(starts, address) - 1
    if i >= 0 and address < entries[i][0] + entries[i][1]:
        return demangle(entries[i][2])
    return None


def samples(dump_path: str):
    """(raw bytes, user-stack offset) of each sample record in ``perf report -D`` output."""
    raw, offset = None, None
    hexline = re.compile(r"^\.\s+[0-9a-f]{4}:\s+((?:[0-9a-f]{2} )+)")
    with open(dump_path) as f:
        for line in f:
            if line.startswith(". ... raw event"):
                if raw is not None and offset is not None:
                    yield raw, offset
                raw, offset = bytearray(), None
            elif raw is not None and (m := hexline.match(line)):
                raw.extend(bytes.fromhex(m.group(1).replace(" ", "")))
            elif m := re.match(r"^\.\.\. ustack: size \d+, offset (0x[0-9a-f]+)", line):
                offset = int(m.group(1), 16)
    if raw is not None and offset is not None:
        yield raw, offset


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dump", help="perf report -D output of a --call-graph dwarf recording")
    ap.add_argument("map", help="the /tmp/perf-PID.map profile_games.py wrote")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--sites", type=int, default=0,
                    help="also print the N hottest call sites (caller + offset of the return "
                         "address: find it in benchmarks/annotate.py's listing of the caller)")
    args = ap.parse_args()
    starts, entries = read_map(args.map)
    callers = collections.Counter()
    sites = collections.Counter()
    total = 0
    for raw, offset in samples(args.dump):
        if len(raw) < offset + 16:
            continue
        total += 1
        ip = struct.unpack_from("<Q", raw, 8)[0]  # PERF_SAMPLE_IP follows the 8-byte header
        where = symbol(starts, entries, ip)
        if where in NRT:
            # the stack's size (8 bytes), then its bytes: the top word is the return address
            ret = struct.unpack_from("<Q", raw, offset + 8)[0]
            caller = symbol(starts, entries, ret) or "?"
            callers[(caller, where)] += 1
            i = bisect.bisect_right(starts, ret) - 1
            sites[(caller, ret - entries[i][0] if i >= 0 else ret)] += 1
    print(f"{total} samples; in {' / '.join(NRT)}: "
          f"{100 * sum(callers.values()) / max(total, 1):.1f} %")
    by_caller = collections.Counter()
    for (caller, _), k in callers.items():
        by_caller[caller] += k
    for caller, k in by_caller.most_common(args.top):
        print(f"{100 * k / total:6.2f} %  {caller}")
    for (caller, off), k in sites.most_common(args.sites):
        print(f"{100 * k / total:6.2f} %  {caller} +{off:#x}")


if __name__ == "__main__":
    main()
