#!/usr/bin/env python3
"""Checks that the standard-ABI header agrees with MPICH's mpi_abi.h on everything it declares.

Usage:
  check_abi_standard.py INCLUDE_DIR MPICH_INCLUDE_DIR WORK_DIR [HEADER]
  check_abi_standard.py --selftest MPICH_INCLUDE_DIR WORK_DIR

INCLUDE_DIR holds our standard-ABI header HEADER (default mpi_dtype.h); MPICH_INCLUDE_DIR
holds MPICH 5's mpi.h and mpi_abi.h, read the way MPICH's mpicc_abi reads them (mpi.h
compiled with -DMPI_ABI includes mpi_abi.h). The checks:

1. Constants. Every macro or enum constant both headers define (handles, sentinels and
   integers alike) has the same value: each header is compiled into a program that prints
   them. A constant MPI_* of ours that mpi_abi.h lacks is an error (the standard ABI removed
   it, or it is misspelt); MPIX_* extensions and string macros are listed, not errors.
2. Types. MPI_Aint, MPI_Count, MPI_Offset and the handle types have the same sizes, each
   handle type is a pointer to the standard's struct (struct MPI_ABI_Datatype * ...), and
   MPI_Status has the same size and field offsets. Our single-line and callback typedefs,
   repeated after mpi_abi.h in one translation unit, are accepted (C11 allows a typedef to
   be repeated only with the same type).
3. Prototypes. Every function prototype of ours that mpi_abi.h also declares, repeated
   after mpi_abi.h in one translation unit, compiles with -Wall -Werror (conflicting
   declarations are errors). A prototype of an MPI_* / PMPI_* function mpi_abi.h does not
   declare is an error (MPIX_* ones are listed).

--selftest checks the constants table and the preamble before the library emits them: it
writes a header into WORK_DIR/selftest from src/abi/standard_preamble.h, the #defines of
src/abi/constants.rs (the standard ABI's values, emitted here the way the header generator
emits handles: ((MPI_Datatype)0x214)) and the prototypes of the MPICH-ABI header include/mpi_dtype.h
(whose text names types only), then runs the checks on it. Prototypes the standard ABI does
not have are listed there instead of failing: they tell which functions the standard-ABI
build must leave out.
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Names of ours that are not MPI constants: the include guard and the version stamp.
NOT_CONSTANTS = re.compile(r"^(MPI_DTYPE_\w*|MPI_DTYPE_ABI_\w*|MPI_H\w*)$")


def run(cmd):
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(map(str, cmd))} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def strip_comments(text):
    """The text without C comments (kept line numbers do not matter here)."""
    return re.sub(r"/\*.*?\*/", " ", text, flags=re.S)


def constants_of(text):
    """Object-like macros and enum members named MPI_* / MPIX_*: {name: replacement text}."""
    text = strip_comments(text)
    found = {}
    for name, value in re.findall(r"^\s*#\s*define\s+(MPIX?_\w+)(?!\()\s*(.*)$", text, re.M):
        found[name] = value.strip()
    for body in re.findall(r"\benum\b[^{;]*\{(.*?)\}", text, re.S):
        for name, value in re.findall(r"(MPIX?_\w+)\s*=\s*([^,]+)", body):
            found[name] = value.strip()
    return {n: v for n, v in found.items() if not NOT_CONSTANTS.match(n)}


def function_macros_of(text):
    """Function-like macros named MPI_* / PMPI_* / MPIX_*."""
    return set(re.findall(r"^\s*#\s*define\s+(P?MPIX?_\w+)\(", strip_comments(text), re.M))


def prototypes_of(text):
    """Function declarations {name: declaration}, each on one line (C text split at ';')."""
    text = strip_comments(text)
    text = re.sub(r"^\s*#.*$", "", text, flags=re.M)
    found = {}
    for chunk in text.split(";"):
        chunk = " ".join(chunk.rsplit("}", 1)[-1].rsplit("{", 1)[-1].split())
        if chunk.startswith("typedef") or chunk.startswith("extern \"C\""):
            continue
        m = re.match(r"^[A-Za-z_][\w\s\*]*?\b(P?MPIX?_\w+)\s*\((.*)\)$", chunk)
        if m:
            found[m.group(1)] = chunk + ";"
    return found


def typedefs_of(text):
    """Typedefs without a brace (handles, integers, callbacks), each as one line."""
    text = strip_comments(text)
    return [" ".join(t.split()) for t in re.findall(r"^\s*(typedef\s[^{};]*;)", text, re.M | re.S)]


def handle_structs_of(text):
    """{handle type: struct tag} of the handle typedefs."""
    return dict(
        (name, tag)
        for tag, name in re.findall(r"typedef\s+struct\s+(\w+)\s*\*\s*(MPI_\w+)\s*;", strip_comments(text))
    )


def include_lines(which, header):
    if which == "mpich":
        return ["#include <mpi.h>"]
    return [f"#include <{header}>"]


def compile_and_run(lines, include_dir, work, tag, defines=()):
    source = work / f"{tag}.c"
    source.write_text("\n".join(lines) + "\n")
    exe = work / tag
    run(["gcc", "-std=c11", "-w", *defines, f"-I{include_dir}", str(source), "-o", str(exe)])
    return dict(line.split(" ", 1) for line in run([str(exe)]).splitlines())


def values(which, header, include_dir, names, work, defines):
    lines = include_lines(which, header) + ["#include <stdint.h>", "#include <stdio.h>", "int main(void) {"]
    for name in names:
        lines.append(f'    printf("{name} %lld\\n", (long long)(intptr_t)({name}));')
    lines += ["    return 0;", "}"]
    return compile_and_run(lines, include_dir, work, f"values_{which}", defines)


def layout(which, header, include_dir, handles, work, defines):
    lines = include_lines(which, header) + ["#include <stddef.h>", "#include <stdio.h>", "int main(void) {"]
    probes = {
        "sizeof(MPI_Aint)": "(long long)sizeof(MPI_Aint)",
        "sizeof(MPI_Count)": "(long long)sizeof(MPI_Count)",
        "sizeof(MPI_Offset)": "(long long)sizeof(MPI_Offset)",
        "signed(MPI_Aint)": "(long long)((MPI_Aint)-1 < 0)",
        "signed(MPI_Count)": "(long long)((MPI_Count)-1 < 0)",
        "sizeof(MPI_Status)": "(long long)sizeof(MPI_Status)",
    }
    for field in ("MPI_SOURCE", "MPI_TAG", "MPI_ERROR", "MPI_internal"):
        probes[f"offsetof(MPI_Status,{field})"] = f"(long long)offsetof(MPI_Status, {field})"
    probes["sizeof(MPI_internal)"] = "(long long)sizeof(((MPI_Status *)0)->MPI_internal)"
    for handle, tag in handles.items():
        probes[f"sizeof({handle})"] = f"(long long)sizeof({handle})"
        probes[f"{handle} is struct {tag} *"] = f"(long long)_Generic(({handle})0, struct {tag} *: 1, default: 0)"
    for label, expr in probes.items():
        lines.append(f'    printf("%s %lld\\n", "{label}", {expr});')
    lines += ["    return 0;", "}"]
    return compile_and_run(lines, include_dir, work, f"layout_{which}", defines)


def check(ours_dir, header, mpich_dir, work, selftest=False):
    work.mkdir(parents=True, exist_ok=True)
    ours_text = (ours_dir / header).read_text()
    theirs_text = (mpich_dir / "mpi_abi.h").read_text()
    mpich_defines = ["-DMPI_ABI"]
    problems, notes = [], []

    # 1. Constants.
    ours, theirs = constants_of(ours_text), constants_of(theirs_text)
    strings = sorted(n for n, v in ours.items() if v.startswith('"'))
    numeric = sorted(n for n in ours if n not in strings)
    common = [n for n in numeric if n in theirs]
    ours_values = values("ours", header, ours_dir, common, work, [])
    theirs_values = values("mpich", header, mpich_dir, common, work, mpich_defines)
    for name in common:
        if ours_values[name] != theirs_values[name]:
            problems.append(f"constant {name}: ours {ours_values[name]}, mpi_abi.h {theirs_values[name]}")
    for name in numeric:
        if name not in theirs:
            if name.startswith("MPIX_"):
                notes.append(f"extension constant {name} (mpi_abi.h lacks it)")
            else:
                problems.append(f"constant {name} is not in the standard ABI (mpi_abi.h lacks it)")
    notes += [f"string constant {n} (not compared)" for n in strings]
    for name in sorted(function_macros_of(ours_text)):
        if not name.startswith("MPIX_") and name not in prototypes_of(theirs_text):
            problems.append(f"function-like macro {name} is not in the standard ABI")

    # 2. Types.
    handles = handle_structs_of(ours_text)
    if "MPI_Datatype" not in handles:
        problems.append("MPI_Datatype is not declared as a pointer to a struct")
    ours_layout = layout("ours", header, ours_dir, handles, work, [])
    theirs_layout = layout("mpich", header, mpich_dir, handles, work, mpich_defines)
    for label, value in ours_layout.items():
        if theirs_layout.get(label) != value:
            problems.append(f"{label}: ours {value}, mpi_abi.h {theirs_layout.get(label)}")
    typedefs = typedefs_of(ours_text)
    unit = work / "typedefs.c"
    unit.write_text("#include <mpi.h>\n" + "\n".join(typedefs) + "\n")
    result = subprocess.run(
        ["gcc", "-std=c11", "-Wall", "-Werror", "-c", *mpich_defines, f"-I{mpich_dir}", str(unit), "-o", str(work / "typedefs.o")],
        capture_output=True, text=True,
    )
    if result.returncode != 0:
        problems.append("typedefs that differ from mpi_abi.h's:\n" + result.stderr)

    # 3. Prototypes.
    ours_protos, theirs_protos = prototypes_of(ours_text), prototypes_of(theirs_text)
    shared = {n: d for n, d in ours_protos.items() if n in theirs_protos}
    missing = sorted(n for n in ours_protos if n not in theirs_protos)
    for name in missing:
        if name.startswith(("MPIX_", "PMPIX_")):
            notes.append(f"extension function {name}")
        elif selftest:
            notes.append(f"function {name} is not in the standard ABI: the standard-ABI build must leave it out")
        else:
            problems.append(f"function {name} is not in the standard ABI (mpi_abi.h does not declare it)")
    unit = work / "prototypes.c"
    unit.write_text("#include <mpi.h>\n" + "\n".join(shared.values()) + "\n")
    result = subprocess.run(
        ["gcc", "-std=c11", "-Wall", "-Werror", "-c", *mpich_defines, f"-I{mpich_dir}", str(unit), "-o", str(work / "prototypes.o")],
        capture_output=True, text=True,
    )
    if result.returncode != 0:
        conflicts = sorted(set(re.findall(r"conflicting types for ['‘](\w+)['’]", result.stderr)))
        detail = ", ".join(conflicts) if conflicts else result.stderr
        problems.append(f"prototypes that conflict with mpi_abi.h's: {detail}")

    for note in notes:
        print(f"note: {note}")
    if problems:
        sys.exit("standard ABI check failed:\n  " + "\n  ".join(problems))
    minimum_protos = 0 if selftest and not shared else 80
    if len(common) < 150 or len(shared) < minimum_protos:
        sys.exit(f"too little was compared ({len(common)} constants, {len(shared)} prototypes)")
    print(
        f"{len(common)} constants equal mpi_abi.h's; types and MPI_Status layout agree; "
        f"{len(shared)} prototypes are compatible with mpi_abi.h's"
    )


def table_entries(path, abi="standard"):
    """The constants an ABI has in the abi_constants! table (`NAME: TYPE = abi VALUE, ...;`):
    (name, type, value as written for that ABI, doc)."""
    entries, doc = [], []
    for line in path.read_text().splitlines():
        stripped = line.strip()
        if stripped.startswith("///"):
            doc.append(stripped[3:].strip())
            continue
        m = re.match(r"^(MPIX?_\w+)\s*:\s*(\w+)\s*=\s*(.+?);$", stripped)
        if m:
            values = dict(v.strip().split(" ", 1) for v in m.group(3).split(","))
            if abi in values:
                entries.append((m.group(1), m.group(2), values[abi], " ".join(doc)))
        if not stripped.startswith("//"):
            doc = []
    return entries


def emit_selftest_header(path):
    """A standard-ABI header made from the preamble, the table and the MPICH-ABI prototypes."""
    preamble = (ROOT / "src" / "abi" / "standard_preamble.h").read_text()
    preamble += (ROOT / "src" / "abi" / "callback_types.h").read_text()
    lines = [
        "#ifndef MPI_DTYPE_ABI_SELFTEST_H",
        "#define MPI_DTYPE_ABI_SELFTEST_H",
        "#include <stddef.h>",
        preamble,
        "/* Constants of the standard ABI (from src/abi/constants.rs). */",
    ]
    entries = table_entries(ROOT / "src" / "abi" / "constants.rs")
    if len(entries) < 150:
        sys.exit(f"read only {len(entries)} entries of the standard ABI from src/abi/constants.rs")
    for name, ty, written, doc in entries:
        if re.match(r"^[A-Za-z_]\w*$", written):
            text = written
        elif ty == "c_int":
            text = f"({written})"
        else:
            text = f"(({ty}){int(written, 0):#x})"
        if doc:
            lines.append("/* " + doc.replace("*/", "* /") + " */")
        lines.append(f"#define {name} {text}")
    mpich_header = (ROOT / "include" / "mpi_dtype.h").read_text()
    protos = re.findall(r"^((?:int|double|MPI_Aint|MPI_Datatype|MPI_Comm) \*?P?MPIX?_\w+\([^;]*\);)$", mpich_header, re.M)
    # Types the preamble does not declare (MPICH's MPIX_Iov, MPI_Fint) keep a prototype out.
    unknown = re.compile(r"\b(MPIX_Iov|MPI_Fint)\b")
    for proto in protos:
        if unknown.search(proto):
            print(f"note: selftest header leaves out {proto.split('(')[0].split()[-1]} (a type of MPICH's ABI)")
    # The generalized requests' callback types, which the communication prototypes declare.
    communication = (ROOT / "src" / "ffi" / "comm" / "communication.h").read_text()
    lines += re.findall(r"^typedef int \(MPI_Grequest_\w+\)\([^;]*\);$", communication, re.M)
    lines.append("/* Prototypes of the MPICH-ABI header (include/mpi_dtype.h). */")
    lines += [p for p in protos if not unknown.search(p)]
    lines.append("#endif")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")


def main():
    args = sys.argv[1:]
    if args[:1] == ["--selftest"] and len(args) == 3:
        mpich_dir, work = map(pathlib.Path, args[1:3])
        header_dir = work / "selftest"
        emit_selftest_header(header_dir / "mpi_dtype.h")
        check(header_dir, "mpi_dtype.h", mpich_dir, work, selftest=True)
    elif len(args) in (3, 4):
        ours_dir, mpich_dir, work = map(pathlib.Path, args[:3])
        check(ours_dir, args[3] if len(args) == 4 else "mpi_dtype.h", mpich_dir, work)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
