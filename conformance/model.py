"""The naive type-map model of the conformance harness.

It reads a recipe printed by harness.c (a datatype written as its constructor arguments),
writes out the type map entry by entry from the MPI standard's definition of each
constructor (MPI-4.1 §5.1), computes bounds with the standard's marker equations (§5.1.7)
and predicts every line the harness prints: size, bounds, true bounds, the decoded type
(which is the recipe itself) and the bytes MPI_Pack writes and MPI_Unpack restores.

`features` names the constructs of a type that the documented departures of MPICH and
Open MPI from the standard depend on (conformance/deviations/*.toml), so that the driver can
tell whether a library's difference is one of them.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import zlib

# Basic types: (size, alignment) of the C type on x86-64 Linux.
BASIC = {
    "MPI_CHAR": (1, 1),
    "MPI_UNSIGNED_CHAR": (1, 1),
    "MPI_BYTE": (1, 1),
    "MPI_SHORT": (2, 2),
    "MPI_INT": (4, 4),
    "MPI_UNSIGNED": (4, 4),
    "MPI_LONG": (8, 8),
    "MPI_LONG_LONG": (8, 8),
    "MPI_FLOAT": (4, 4),
    "MPI_DOUBLE": (8, 8),
    "MPI_LONG_DOUBLE": (16, 16),
    "MPI_INT8_T": (1, 1),
    "MPI_INT16_T": (2, 2),
    "MPI_UINT32_T": (4, 4),
    "MPI_INT64_T": (8, 8),
    "MPI_C_BOOL": (1, 1),
    "MPI_WCHAR": (4, 4),
    "MPI_AINT": (8, 8),
    "MPI_C_FLOAT_COMPLEX": (8, 4),
    "MPI_C_DOUBLE_COMPLEX": (16, 8),
}

# The pair types are the C structs they stand for: (value type, int at its offset).
PAIRS = {
    "MPI_FLOAT_INT": ("MPI_FLOAT", 4),
    "MPI_DOUBLE_INT": ("MPI_DOUBLE", 8),
    "MPI_LONG_INT": ("MPI_LONG", 8),
    "MPI_2INT": ("MPI_INT", 4),
    "MPI_SHORT_INT": ("MPI_SHORT", 4),
    "MPI_LONG_DOUBLE_INT": ("MPI_LONG_DOUBLE", 16),
}

# Entry kinds of a type map.
DATA, LB, UB = "data", "lb", "ub"

# Library-independent words the harness prints for orders, distributions and dargs.
WORDS = {"C", "FORTRAN", "BLOCK", "CYCLIC", "NONE", "DFLT"}


@dataclasses.dataclass(frozen=True)
class Named:
    """A predefined named datatype."""

    name: str


@dataclasses.dataclass(frozen=True)
class Derived:
    """A derived datatype: its combiner and get_contents arrays."""

    combiner: str
    ints: tuple
    addrs: tuple
    types: tuple


def parse(text: str):
    """Parses the harness notation `combiner(i=...;a=...;t=...)` or a predefined name."""
    tokens = re.findall(r"[A-Za-z_][A-Za-z0-9_]*|-?\d+|[(),;=]", text)
    pos = 0

    def take(expected=None):
        nonlocal pos
        tok = tokens[pos]
        if expected is not None and tok != expected:
            raise ValueError(f"expected {expected!r} at token {pos} of {text!r}, got {tok!r}")
        pos += 1
        return tok

    def values(stop):
        out = []
        while tokens[pos] != stop:
            tok = take()
            if tok != ",":
                out.append(tok if tok in WORDS else int(tok))
        return tuple(out)

    def node():
        name = take()
        if name.startswith("MPI_"):
            return Named(name)
        take("(")
        take("i")
        take("=")
        ints = values(";")
        take(";")
        take("a")
        take("=")
        addrs = values(";")
        take(";")
        take("t")
        take("=")
        types = []
        while tokens[pos] != ")":
            if tokens[pos] == ",":
                take()
            types.append(node())
        take(")")
        return Derived(name, ints, addrs, tuple(types))

    result = node()
    if pos != len(tokens):
        raise ValueError(f"trailing tokens in {text!r}")
    return result


class TypeMap:
    """A type map: (kind, displacement, basic name) entries in order."""

    def __init__(self, entries=None):
        self.entries = entries or []

    def shifted(self, offset, data_only=False):
        return [
            (k, d + offset, n) for (k, d, n) in self.entries if not data_only or k == DATA
        ]

    def data(self):
        return [(d, n) for (k, d, n) in self.entries if k == DATA]

    def size(self):
        return sum(BASIC[n][0] for _, n in self.data())

    def lb(self):
        marks = [d for (k, d, _) in self.entries if k == LB]
        if marks:
            return min(marks)
        return min((d for (_, d, _) in self.entries), default=0)

    def ub(self):
        marks = [d for (k, d, _) in self.entries if k == UB]
        if marks:
            return max(marks)
        if not self.entries:
            return 0
        raw = max(d + (BASIC[n][0] if k == DATA else 0) for (k, d, n) in self.entries)
        align = max((BASIC[n][1] for _, n in self.data()), default=1)
        lb = self.lb()
        return lb + -(-(raw - lb) // align) * align

    def extent(self):
        return self.ub() - self.lb()

    def true_lb(self):
        return min((d for d, _ in self.data()), default=0)

    def true_ub(self):
        return max((d + BASIC[n][0] for d, n in self.data()), default=0)


@functools.lru_cache(maxsize=4096)
def type_map(t) -> TypeMap:
    """The type map of `t` by the standard's definitions (cached: `features` asks for every
    node's map, and the callers never modify one)."""
    if isinstance(t, Named):
        if t.name in PAIRS:
            value, offset = PAIRS[t.name]
            return TypeMap([(DATA, 0, value), (DATA, offset, "MPI_INT")])
        return TypeMap([(DATA, 0, t.name)])
    c, i, a = t.combiner, t.ints, t.addrs
    children = [type_map(child) for child in t.types]
    out = []
    if c == "dup":
        return children[0]
    if c == "struct":
        for bl, disp, child in zip(i[1:], a, children):
            ext = child.extent()
            for j in range(bl):
                out += child.shifted(disp + j * ext)
        return TypeMap(out)
    old = children[0]
    ext = old.extent()
    if c == "contiguous":
        blocks = [(k * ext, 1) for k in range(i[0])]
    elif c in ("vector", "hvector"):
        step = i[2] * ext if c == "vector" else a[0]
        blocks = [(k * step, i[1]) for k in range(i[0])]
    elif c in ("indexed", "hindexed"):
        n = i[0]
        disps = [d * ext for d in i[1 + n : 1 + 2 * n]] if c == "indexed" else list(a)
        blocks = list(zip(disps, i[1 : 1 + n]))
    elif c in ("indexed_block", "hindexed_block"):
        disps = [d * ext for d in i[2:]] if c == "indexed_block" else list(a)
        blocks = [(d, i[1]) for d in disps]
    elif c == "resized":
        lb, extent = a
        return TypeMap([(LB, lb, None)] + old.shifted(0, data_only=True) + [(UB, lb + extent, None)])
    elif c == "subarray":
        n = i[0]
        sizes, subsizes, starts = i[1 : 1 + n], i[1 + n : 1 + 2 * n], i[1 + 2 * n : 1 + 3 * n]
        ranges = [range(starts[d], starts[d] + subsizes[d]) for d in range(n)]
        return array_part(sizes, ranges, i[-1], old)
    elif c == "darray":
        n = i[2]
        return array_part(i[3 : 3 + n], darray_indices(i), i[-1], old)
    else:
        raise ValueError(f"unknown combiner {c}")
    for disp, bl in blocks:
        for j in range(bl):
            out += old.shifted(disp + j * ext)
    return TypeMap(out)


def array_part(sizes, ranges, order, old: TypeMap) -> TypeMap:
    """The elements of an array of `sizes` whose index in dimension d is in ranges[d], in
    array order, between an lb marker at 0 and a ub marker at the end of the whole array."""
    n = len(sizes)
    ext = old.extent()
    dims = list(range(n)) if order == "C" else list(range(n))[::-1]
    strides = [1] * n
    for k in range(n - 2, -1, -1):
        strides[dims[k]] = strides[dims[k + 1]] * sizes[dims[k + 1]]
    linear = [0]
    for d in dims:  # slowest-varying dimension first
        linear = [base + idx * strides[d] for base in linear for idx in ranges[d]]
    out = [(LB, 0, None)]
    for index in linear:
        out += old.shifted(index * ext, data_only=True)
    total = 1
    for s in sizes:
        total *= s
    out.append((UB, total * ext, None))
    return TypeMap(out)


def darray_indices(ints):
    """For each darray dimension, the global indices the process owns (the standard's block,
    cyclic(k) and none distributions; process coordinates are row-major)."""
    size, rank, n = ints[0], ints[1], ints[2]
    gsizes, distribs = ints[3 : 3 + n], ints[3 + n : 3 + 2 * n]
    dargs, psizes = ints[3 + 2 * n : 3 + 3 * n], ints[3 + 3 * n : 3 + 4 * n]
    assert size == prod(psizes)
    coords = [0] * n
    rest = rank
    for d in range(n - 1, -1, -1):
        coords[d] = rest % psizes[d]
        rest //= psizes[d]
    out = []
    for d in range(n):
        g, p, darg = gsizes[d], psizes[d], dargs[d]
        if distribs[d] == "NONE":
            out.append(range(g))
        elif distribs[d] == "BLOCK":
            b = -(-g // p) if darg == "DFLT" else darg
            out.append([x for x in range(g) if x // b == coords[d]])
        else:
            b = 1 if darg == "DFLT" else darg
            out.append([x for x in range(g) if (x // b) % p == coords[d]])
    return out


def prod(values):
    out = 1
    for v in values:
        out *= v
    return out


# The source buffer byte at offset o from the origin holds o mod 251.
_PATTERN = bytes(range(251)) * 2


def _pattern(offset, size):
    start = offset % 251
    return _PATTERN[start : start + size]


def pack_lines(tm: TypeMap, count: int, region: int):
    """The `pack` and `unpack` lines for `count` elements of `tm`."""
    ext = tm.extent()
    data = tm.data()
    packed = bytearray()
    target = bytearray(b"\xaa") * (2 * region)
    for k in range(count):
        for disp, name in data:
            where = disp + k * ext
            size = BASIC[name][0]
            chunk = _pattern(where, size)
            packed += chunk
            target[where + region : where + region + size] = chunk
    n = len(packed)
    return [
        f"pack {count} {n} {zlib.crc32(packed):08x}",
        f"unpack {count} {n} {zlib.crc32(target):08x}",
    ]


# External32 (MPI-4.1 §14.5.2, table 14.5): how each basic type is written: ("int", width,
# signed) for integers (big-endian, narrowed or widened to the width), ("float", part size)
# for IEEE floats and complex numbers (each part big-endian), ("bytes",) as they are, and
# ("x87",) for the x87 long double, written as IEEE binary128.
EXTERNAL32 = {
    "MPI_CHAR": ("bytes",),
    "MPI_UNSIGNED_CHAR": ("bytes",),
    "MPI_BYTE": ("bytes",),
    "MPI_INT8_T": ("bytes",),
    "MPI_C_BOOL": ("bytes",),
    "MPI_SHORT": ("int", 2, True),
    "MPI_INT16_T": ("int", 2, True),
    "MPI_INT": ("int", 4, True),
    "MPI_UNSIGNED": ("int", 4, False),
    "MPI_UINT32_T": ("int", 4, False),
    "MPI_LONG": ("int", 4, True),
    "MPI_LONG_LONG": ("int", 8, True),
    "MPI_INT64_T": ("int", 8, True),
    "MPI_AINT": ("int", 8, True),
    "MPI_WCHAR": ("int", 2, False),
    "MPI_FLOAT": ("float", 4),
    "MPI_DOUBLE": ("float", 8),
    "MPI_C_FLOAT_COMPLEX": ("float", 4),
    "MPI_C_DOUBLE_COMPLEX": ("float", 8),
    "MPI_LONG_DOUBLE": ("x87",),
}


def external32_size(name):
    form = EXTERNAL32[name]
    native = BASIC[name][0]
    if form[0] == "int":
        return form[1]
    return native


def to_external32(name, native: bytes) -> bytes:
    form = EXTERNAL32[name]
    if form[0] == "bytes":
        return native
    if form[0] == "int":
        value = int.from_bytes(native, "little", signed=form[2])
        return (value & ((1 << (8 * form[1])) - 1)).to_bytes(form[1], "big")
    if form[0] == "float":
        part = form[1]
        return b"".join(native[i : i + part][::-1] for i in range(0, len(native), part))
    mantissa = int.from_bytes(native[0:8], "little")
    sign_exp = int.from_bytes(native[8:10], "little")
    fraction = mantissa & ~(1 << 63)
    return ((sign_exp << 112) | (fraction << 49)).to_bytes(16, "big")


def from_external32(name, external: bytes) -> bytes:
    form = EXTERNAL32[name]
    native = BASIC[name][0]
    if form[0] == "bytes":
        return external
    if form[0] == "int":
        value = int.from_bytes(external, "big", signed=form[2])
        return (value & ((1 << (8 * native)) - 1)).to_bytes(native, "little")
    if form[0] == "float":
        part = form[1]
        return b"".join(external[i : i + part][::-1] for i in range(0, len(external), part))
    bits = int.from_bytes(external, "big")
    sign_exp = bits >> 112
    exponent = sign_exp & 0x7FFF
    fraction = (bits >> 49) & ((1 << 63) - 1)
    mantissa = (1 << 63 if exponent else 0) | fraction
    if exponent == 0x7FFF and fraction == 0 and bits & ((1 << 112) - 1):
        mantissa |= 1 << 62
    return mantissa.to_bytes(8, "little") + sign_exp.to_bytes(2, "little") + bytes(6)


def external_lines(tm: TypeMap, count: int, region: int):
    """The `ext` and `unext` lines for `count` elements of `tm`."""
    ext = tm.extent()
    packed = bytearray()
    target = bytearray(b"\xaa") * (2 * region)
    for k in range(count):
        for disp, name in tm.data():
            where = disp + k * ext
            size = BASIC[name][0]
            form = to_external32(name, _pattern(where, size))
            packed += form
            target[where + region : where + region + size] = from_external32(name, form)
    n = len(packed)
    return [
        f"ext {count} {n} {zlib.crc32(packed):08x}",
        f"unext {count} {n} {zlib.crc32(target):08x}",
    ]


def elements_line(tm: TypeMap, nbytes: int):
    """MPI_Get_elements and MPI_Get_count on a status of `nbytes` bytes: the basic elements
    of the copies that fill it, `undefined` if it ends inside a basic element (§5.1.11), and
    the whole copies, `undefined` if it is not a whole number of them (§3.2.5)."""
    size = tm.size()
    sizes = [BASIC[name][0] for _, name in tm.data()]
    whole, rest = divmod(nbytes, size)
    elements = whole * len(sizes)
    for s in sizes:
        if rest < s:
            break
        rest -= s
        elements += 1
    shown = str(elements) if rest == 0 else "undefined"
    copies = str(whole) if nbytes % size == 0 else "undefined"
    return f"elements {nbytes} {shown} {copies}"


def predict(recipe_text: str, region: int, extra: bool = True):
    """Every line the harness prints between `region` and `end`, as the model sees them
    (with `extra`, the ext, unext and elements lines too)."""
    t = parse(recipe_text)
    tm = type_map(t)
    lines = [
        f"size {tm.size()}",
        f"extent {tm.lb()} {tm.extent()}",
        f"true_extent {tm.true_lb()} {tm.true_ub() - tm.true_lb()}",
        f"decode {recipe_text}",
    ]
    for count in (1, 2, 3):
        lines += pack_lines(tm, count, region)
        if extra:
            lines += external_lines(tm, count, region)
    size = tm.size()
    if extra:
        # The large-count lines repeat the answers of the int ones.
        lines += [
            f"size_c {size}",
            "extent_c " + lines[1].split(" ", 1)[1],
            "true_extent_c " + lines[2].split(" ", 1)[1],
        ]
        lines += [line.replace("pack 2 ", "pack_c 2 ", 1) for line in pack_lines(tm, 2, region)]
    if size > 0 and extra:
        for nbytes in (size // 2, size + 4, max(2 * size - 8, 0)):
            line = elements_line(tm, nbytes)
            lines += [line, line.replace("elements", "elements_c", 1)]
    return lines


def _has_markers(tm: TypeMap) -> bool:
    return any(k != DATA for (k, _, _) in tm.entries)


def _is_empty(tm: TypeMap) -> bool:
    return not tm.data()


def _padded(tm: TypeMap) -> bool:
    """Whether the standard's alignment increment epsilon is positive for this type map."""
    if not tm.data() or any(k == UB for (k, _, _) in tm.entries):
        return False
    raw = max(d + (BASIC[n][0] if k == DATA else 0) for (k, d, n) in tm.entries)
    return tm.ub() != raw


# The pair types whose C struct ends in padding (its extent is more than its size).
PADDED_PAIRS = {"MPI_DOUBLE_INT", "MPI_LONG_INT", "MPI_SHORT_INT", "MPI_LONG_DOUBLE_INT"}

REPLICATING = {
    "contiguous", "vector", "hvector", "indexed", "hindexed", "indexed_block", "hindexed_block",
    "struct",
}


def features(recipe_text: str) -> set:
    """The features of a type that the documented deviations depend on (see
    deviations/*.toml): each names a construct the standard gives a precise meaning to and
    some library gets wrong."""
    found = set()

    def visit(t):
        tm = type_map(t)
        if isinstance(t, Named):
            if t.name in ("MPI_LONG_DOUBLE", "MPI_LONG_DOUBLE_INT"):
                found.add("long_double")
            if t.name in PAIRS:
                found.add("pair_type")
            if t.name in ("MPI_LONG", "MPI_LONG_INT"):
                found.add("long")
            if t.name == "MPI_WCHAR":
                found.add("wchar")
            return tm
        if any(isinstance(child, Named) and child.name in PADDED_PAIRS for child in t.types):
            found.add("padded_pair")
        children = [visit(child) for child in t.types]
        c, i, a = t.combiner, t.ints, t.addrs
        align = max((BASIC[n][1] for _, n in tm.data()), default=1)
        starts = [d + child.lb() for d, child in zip(a, children)] if c == "struct" else []
        if any(d % BASIC[n][1] for d, n in tm.data()) or any(x % align for x in [tm.lb()] + starts):
            found.add("misaligned_data")
        if _padded(tm):
            found.add("alignment_padding")
        if c in REPLICATING:
            if any(_has_markers(child) for child in children):
                found.add("markers_replicated")
            if any(_is_empty(child) for child in children) or _zero_block(c, i):
                found.add("zero_length_block")
            if _negative_offset(c, i, a):
                found.add("negative_offset")
        if c in ("vector", "hvector") and i[0] > 1 and i[1] > 0:
            if (i[2] * children[0].extent() if c == "vector" else a[0]) == -1:
                found.add("stride_minus_one_byte")
        if c == "resized" and a[0] < 0:
            found.add("negative_offset")
        if c in ("subarray", "darray"):
            if _is_empty(tm):
                found.add("zero_length_block")
            if _is_empty(children[0]):
                found.add("array_of_empty_type")
            if children[0].lb() != 0 or children[0].true_lb() != 0 or (c == "darray" and tm.true_lb() != 0):
                found.add("array_data_not_at_zero")
        if c == "darray":
            n = i[2]
            if any(dist == "NONE" and p > 1 for dist, p in zip(i[3 + n : 3 + 2 * n], i[3 + 3 * n : 3 + 4 * n])):
                found.add("darray_none_replicated")
        return tm

    whole = visit(parse(recipe_text))
    if _is_empty(whole):
        found.add("empty_type")
    size = whole.size()
    if size > 0 and any(
        elements_line(whole, n).split()[2] == "undefined" for n in (size // 2, size + 4, max(2 * size - 8, 0))
    ):
        found.add("partial_element")
    return found


def _zero_block(c, i) -> bool:
    """Whether the constructor has a zero count or a zero block length."""
    if c == "contiguous":
        return i[0] == 0
    if c in ("vector", "hvector"):
        return i[0] == 0 or i[1] == 0
    if c in ("indexed", "hindexed", "struct"):
        return i[0] == 0 or 0 in i[1 : 1 + i[0]]
    return i[0] == 0 or i[1] == 0  # indexed_block, hindexed_block


def _negative_offset(c, i, a) -> bool:
    """Whether a stride or displacement is negative."""
    if c == "vector":
        return i[2] < 0
    if c == "indexed":
        return any(d < 0 for d in i[1 + i[0] :])
    if c == "indexed_block":
        return any(d < 0 for d in i[2:])
    return any(d < 0 for d in a)
