#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets (fuzz/corpus/<target>/): one small program per
constructor (and its large-count variant), over a basic type, a pair type and a marker, plus
nested programs. The byte layout is the one `Program::decode` (fuzz/src/lib.rs) reads:
  [number of operations - 1] then per operation [selector] ([old] [arguments...]),
where selector % 14 picks the constructor (0 and 13: a predefined type; 1 dup,
2 contiguous, 3 vector, 4 hvector, 5 indexed, 6 hindexed, 7 indexed_block,
8 hindexed_block, 9 struct, 10 subarray, 11 darray, 12 resized) and bit 7 the `_c`
variant."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = ["constructors", "decode_roundtrip", "pack_split", "external32"]
LEAF_INT, LEAF_DOUBLE_INT, LEAF_LB, LEAF_CHAR = 3, 18, 22, 0

# Argument bytes that decode as small counts (a byte below 200, then the value - 1) and
# small displacements.
ARGS = bytes([5, 1, 7, 2, 100, 3, 40, 9, 200, 17, 3, 2, 150, 1, 60, 80, 2, 2, 9, 1] * 3)


def program(ops):
    out = bytearray([len(ops) - 1])
    for op in ops:
        out += op
    return bytes(out)


def leaf(index):
    return bytes([0, index])


def derived(choice, large=False, old=0, args=ARGS):
    return bytes([choice | (0x80 if large else 0), old]) + args


def seeds():
    out = {}
    for choice in range(1, 13):
        for large in (False, True):
            for name, index in (("int", LEAF_INT), ("pair", LEAF_DOUBLE_INT), ("lb", LEAF_LB)):
                key = f"c{choice:02d}{'_large' if large else ''}_{name}"
                out[key] = program([leaf(index), derived(choice, large)])
    # Nested: struct of resized vector of subarray, and a dup chain.
    out["nested"] = program(
        [leaf(LEAF_CHAR), derived(10), derived(3, old=0), derived(12, old=0), derived(9, old=0), derived(1, old=0)]
    )
    out["chain"] = program([leaf(LEAF_INT)] + [derived(2, old=0, args=bytes([5, 1]))] * 10)
    # Large counts: a count byte of 224..243 picks a value near the 32- and 64-bit limits.
    out["large_counts"] = program([leaf(LEAF_INT), derived(2, args=bytes([230, 0])), derived(3, args=bytes([224, 1, 5, 1, 5]))])
    return out


def main():
    root = os.path.join(HERE, "..", "corpus")
    for target in TARGETS:
        os.makedirs(os.path.join(root, target), exist_ok=True)
        for name, data in seeds().items():
            with open(os.path.join(root, target, f"seed_{name}"), "wb") as f:
                f.write(data)
    print(f"{len(seeds())} seeds for each of {', '.join(TARGETS)}", file=sys.stderr)


if __name__ == "__main__":
    main()
