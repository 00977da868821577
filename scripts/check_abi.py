#!/usr/bin/env python3
"""Checks that mpi_dtype.h agrees with MPICH's mpi.h on everything it declares.

Usage: check_abi.py INCLUDE_DIR MPICH_INCLUDE_DIR WORK_DIR

1. Every macro constant of mpi_dtype.h that MPICH's mpi.h also defines has the same value
   (both headers are compiled into programs that print the values).
2. Every function prototype of mpi_dtype.h, redeclared after MPICH's mpi.h in one
   translation unit, is compatible with MPICH's declaration (the compiler rejects
   conflicting redeclarations).
"""
import pathlib
import re
import subprocess
import sys


def run(cmd):
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def values(header_dir, names, work, tag):
    lines = ["#include <mpi.h>", "#include <stdio.h>", "int main(void) {"]
    for name in names:
        lines += [f"#ifdef {name}", f'    printf("{name} %lld\\n", (long long)({name}));', "#endif"]
    lines += ["    return 0;", "}"]
    source = work / f"values_{tag}.c"
    source.write_text("\n".join(lines) + "\n")
    exe = work / f"values_{tag}"
    run(["gcc", "-std=c11", "-w", f"-I{header_dir}", str(source), "-o", str(exe)])
    return dict(line.split() for line in run([str(exe)]).splitlines())


def main():
    ours_dir, mpich_dir, work = map(pathlib.Path, sys.argv[1:4])
    work.mkdir(parents=True, exist_ok=True)
    header = (ours_dir / "mpi_dtype.h").read_text()

    defines = re.findall(r"^#define (MPI\w*) (.+)$", header, re.M)
    names = sorted({n for n, v in defines if not v.startswith('"') and not n.endswith("_FN")})
    ours, theirs = values(ours_dir, names, work, "ours"), values(mpich_dir, names, work, "mpich")
    compared = [n for n in names if n in theirs]
    wrong = [f"{n}: ours {ours.get(n)} MPICH {theirs[n]}" for n in compared if ours.get(n) != theirs[n]]

    prototypes = re.findall(r"^((?:int|double|MPI_Aint) (?:MPI|MPIR)_\w+\([^;]*\);)$", header, re.M)
    unit = work / "prototypes.c"
    unit.write_text("#include <mpi.h>\n" + "\n".join(p for p in prototypes if "MPIR_" not in p) + "\n")
    run(["gcc", "-std=c11", "-Wall", "-Werror", "-c", f"-I{mpich_dir}", str(unit), "-o", str(work / "prototypes.o")])

    if wrong:
        sys.exit("constants that differ from MPICH:\n" + "\n".join(wrong))
    if len(compared) < 100 or len(prototypes) < 80:
        sys.exit(f"too little was compared ({len(compared)} constants, {len(prototypes)} prototypes)")
    print(f"{len(compared)} constants equal MPICH's; {len(prototypes)} prototypes are compatible with MPICH's")


if __name__ == "__main__":
    main()
