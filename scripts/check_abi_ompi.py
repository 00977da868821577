#!/usr/bin/env python3
"""Checks the `ompi` values of the table of constants against Open MPI's mpi.h.

Usage: check_abi_ompi.py [--header OUR_OMPI_INCLUDE_DIR] OPENMPI_INCLUDE_DIR [...]
       check_abi_ompi.py --objects libmpi_dtype_ompi.so OPEN_MPIS_libmpi.so.40

For each constant of src/abi/constants.rs that has an `ompi` value and that the given mpi.h
defines:
- an integer constant must have the same value (a program compiled with that mpi.h prints
  them);
- a handle constant `&ompi_mpi_x` must be the address of the object `ompi_mpi_x` (the
  preprocessed mpi.h names it), and an alias must name a constant with the same object.
Constants the table gives Open MPI and that mpi.h does not define are listed, not failed:
Open MPI leaves some out by configuration (MPI_LB and MPI_UB without its MPI-1
compatibility, the optional Fortran types).

With --header, every function prototype of mpi-dtype's header of Open MPI's ABI is also
redeclared after Open MPI's mpi.h (and its mpi-ext.h, where 4.1 declares the MPIX_ names of
its persistent collectives) in one translation unit: the compiler rejects one that
conflicts with Open MPI's declaration. Prototypes naming a type that mpi.h lacks (MPI-4's
MPI_Session in Open MPI 4.1, MPI_User_function_c) or a function it defines as a macro
(MPI_Aint_add) are left out and counted.

With --objects, every `ompi_*` object that both libraries export must be at least as large in
libmpi_dtype_ompi.so as in Open MPI's libmpi.so.40: a program compiled against Open MPI holds
a copy of each object it names, of the size Open MPI's library gave it.
"""
import pathlib
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check_abi_standard import table_entries  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent


def compiles(source, include, work):
    """gcc's errors for SOURCE compiled against INCLUDE's mpi.h ("" when it compiles)."""
    path = work / "probe.c"
    path.write_text(source)
    result = subprocess.run(
        ["gcc", "-std=c11", "-w", f"-I{include}", "-c", str(path), "-o", str(work / "probe.o")],
        capture_output=True, text=True)
    return "" if result.returncode == 0 else result.stderr


def defined(names, include, work):
    """The names mpi.h declares (macros or enumerators), dropping those the compiler rejects."""
    names = list(names)
    while True:
        body = "".join(f"long long v_{n} = (long long)({n});\n" for n in names)
        errors = compiles("#include <mpi.h>\n" + body, include, work)
        if not errors:
            return names
        bad = set(re.findall(r"[‘']((?:MPI|MPIX)\w*)[’'] undeclared", errors))
        bad |= set(re.findall(r"in expansion of macro [‘']((?:MPI|MPIX)\w*)[’']", errors))
        bad &= set(names)
        if not bad:
            sys.exit(f"cannot compile the constants against {include}:\n{errors[:4000]}")
        names = [n for n in names if n not in bad]


def integer_values(names, include, work):
    lines = ["#include <mpi.h>", "#include <stdio.h>", "int main(void) {"]
    lines += [f'    printf("{n} %lld\\n", (long long)({n}));' for n in names]
    lines += ["    return 0;", "}"]
    (work / "ints.c").write_text("\n".join(lines) + "\n")
    subprocess.run(["gcc", "-std=c11", "-w", f"-I{include}", str(work / "ints.c"), "-o",
                    str(work / "ints")], check=True)
    out = subprocess.run([str(work / "ints")], capture_output=True, text=True, check=True).stdout
    return dict(line.split() for line in out.splitlines())


def handle_objects(names, include, work):
    """The object each handle constant is the address of, from the preprocessed mpi.h."""
    (work / "handles.c").write_text(
        "#include <mpi.h>\n" + "".join(f"HANDLE_{n} = {n};\n" for n in names))
    text = subprocess.run(["gcc", "-E", "-P", f"-I{include}", str(work / "handles.c")],
                          capture_output=True, text=True, check=True).stdout
    objects = {}
    for name, expansion in re.findall(r"^HANDLE_(\w+) = (.*);$", text, re.M):
        m = re.search(r"&\s*\(?\s*(ompi_\w+)", expansion)
        objects[name] = m.group(1) if m else None
    return objects


# The version of the standard a library implements is no part of its ABI: mpi-dtype's Open MPI
# build says 4.0 (it has MPI 4.0's large-count functions), Open MPI 4.1 and 5.0 say 3.1.
NOT_ABI = {"MPI_VERSION", "MPI_SUBVERSION"}


# The types of the constants that are numbers (the others are handles).
NUMBERS = {"c_int", "MPI_Offset"}


def check(include, entries):
    entries = [e for e in entries if e[0] not in NOT_ABI]
    values = {name: value for name, _, value, _ in entries}
    types = {name: ty for name, ty, _, _ in entries}
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        present = defined(values, include, work)
        ints = integer_values([n for n in present if types[n] in NUMBERS], include, work)
        objects = handle_objects([n for n in present if types[n] not in NUMBERS], include, work)

    def ours(name):
        """The object or number the table gives NAME, following aliases."""
        value = values[name]
        while value in values:
            value = values[value]
        return value.lstrip("&").strip()

    wrong = []
    for name in present:
        if types[name] in NUMBERS:
            if int(ours(name), 0) != int(ints[name]):
                wrong.append(f"{name}: table {ours(name)}, mpi.h {ints[name]}")
        elif ours(name) != objects.get(name):
            wrong.append(f"{name}: table {ours(name)}, mpi.h {objects.get(name)}")
    missing = sorted(set(values) - set(present))
    return present, wrong, missing


def prototypes_agree(ours, include):
    """(prototypes compatible, left out, conflicts) of OURS's header against INCLUDE's mpi.h."""
    header = (pathlib.Path(ours) / "mpi_dtype.h").read_text()
    prototypes = re.findall(r"^((?:int|double|MPI_Aint) (?:MPIX?|OMPI_C)_\w+\(([^;]*)\);)$",
                            header, re.M)
    # Open MPI's extensions (4.1's MPIX_*_init) are declared in mpi-ext.h.
    includes = "#include <mpi.h>\n"
    if (pathlib.Path(include) / "mpi-ext.h").exists():
        includes += "#include <mpi-ext.h>\n"
    units = []
    for whole, _ in prototypes:
        name = re.match(r"\w+ (\w+)\(", whole).group(1)
        units.append(f"#ifndef {name}\n{whole}\n#endif")
    left_out = set()
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        while True:
            kept = [u for i, u in enumerate(units) if i not in left_out]
            errors = compiles(includes + "\n".join(kept) + "\n", include, work)
            if not errors:
                break
            conflicts = re.findall(r"conflicting types for [‘'](\w+)[’']", errors)
            if conflicts:
                return len(kept), len(left_out), conflicts
            # Lines of the probe with an unknown type: map them back to prototypes.
            lines = {int(n) for n in re.findall(r"probe\.c:(\d+):\d+: error: unknown type", errors)}
            if not lines:
                sys.exit(f"cannot compile the prototypes against {include}:\n{errors[:4000]}")
            line = includes.count("\n") + 1
            for i, unit in enumerate(units):
                if i in left_out:
                    continue
                span = range(line, line + unit.count("\n") + 1)
                if lines & set(span):
                    left_out.add(i)
                line += unit.count("\n") + 1
    return len(units) - len(left_out), len(left_out), []


def object_sizes(library):
    """The `ompi_*` objects LIBRARY exports, with their sizes (readelf's dynamic symbols)."""
    out = subprocess.run(["readelf", "-sW", "--dyn-syms", library], capture_output=True,
                         text=True, check=True).stdout
    sizes = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 8 and fields[3] == "OBJECT" and fields[7].startswith("ompi_"):
            sizes[fields[7]] = int(fields[2], 0)
    return sizes


def objects_agree(ours, theirs):
    """Every object both export is at least as large in OURS as in THEIRS (so that a program's
    copy of it, sized by Open MPI's library at link time, fits): (compared, too small)."""
    mine, open_mpis = object_sizes(ours), object_sizes(theirs)
    shared = [name for name in mine if name in open_mpis]
    small = [f"{n}: {mine[n]} < {open_mpis[n]}" for n in shared if mine[n] < open_mpis[n]]
    return len(shared), small


def main():
    args = sys.argv[1:]
    ours = None
    if args[:1] == ["--objects"] and len(args) == 3:
        compared, small = objects_agree(args[1], args[2])
        print(f"{args[1]}: {compared} objects of {args[2]}, none smaller" if not small else
              f"{args[1]}: objects smaller than {args[2]}'s: {small}")
        sys.exit(1 if small or compared < 90 else 0)
    if args[:1] == ["--header"]:
        ours, args = args[1], args[2:]
    if not args:
        sys.exit(__doc__)
    entries = table_entries(ROOT / "src" / "abi" / "constants.rs", "ompi")
    failed = False
    for include in args:
        if ours:
            agree, left, conflicts = prototypes_agree(ours, include)
            if conflicts or agree < 300:
                failed = True
                print(f"{include}: prototypes that conflict with Open MPI's: {conflicts}")
            print(f"{include}: {agree} prototypes agree with Open MPI's ({left} left out)")
        present, wrong, missing = check(include, entries)
        if wrong:
            failed = True
            print(f"{include}: constants that differ from Open MPI's mpi.h:")
            print("\n".join("  " + w for w in wrong))
        if len(present) < 250:
            failed = True
            print(f"{include}: too little was compared ({len(present)} constants)")
        print(f"{include}: {len(present) - len(wrong)} of {len(present)} constants equal; "
              f"not in this mpi.h: {' '.join(missing) or 'none'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
