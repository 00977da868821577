#!/usr/bin/env python3
"""Checks the `ompi` values of the table of constants against Open MPI's mpi.h.

Usage: check_abi_ompi.py OPENMPI_INCLUDE_DIR [OPENMPI_INCLUDE_DIR ...]

For each constant of src/abi/constants.rs that has an `ompi` value and that the given mpi.h
defines:
- an integer constant must have the same value (a program compiled with that mpi.h prints
  them);
- a handle constant `&ompi_mpi_x` must be the address of the object `ompi_mpi_x` (the
  preprocessed mpi.h names it), and an alias must name a constant with the same object.
Constants the table gives Open MPI and that mpi.h does not define are listed, not failed:
Open MPI leaves some out by configuration (MPI_LB and MPI_UB without its MPI-1
compatibility, the optional Fortran types).
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


def check(include, entries):
    values = {name: value for name, _, value, _ in entries}
    types = {name: ty for name, ty, _, _ in entries}
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        present = defined(values, include, work)
        ints = integer_values([n for n in present if types[n] == "c_int"], include, work)
        objects = handle_objects([n for n in present if types[n] != "c_int"], include, work)

    def ours(name):
        """The object or number the table gives NAME, following aliases."""
        value = values[name]
        while value in values:
            value = values[value]
        return value.lstrip("&").strip()

    wrong = []
    for name in present:
        if types[name] == "c_int":
            if int(ours(name), 0) != int(ints[name]):
                wrong.append(f"{name}: table {ours(name)}, mpi.h {ints[name]}")
        elif ours(name) != objects.get(name):
            wrong.append(f"{name}: table {ours(name)}, mpi.h {objects.get(name)}")
    missing = sorted(set(values) - set(present))
    return present, wrong, missing


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    entries = table_entries(ROOT / "src" / "abi" / "constants.rs", "ompi")
    failed = False
    for include in sys.argv[1:]:
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
