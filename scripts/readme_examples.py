#!/usr/bin/env python3
"""Writes every ```c code block of a Markdown file that has a main() to its own file.

Usage: readme_examples.py README.md OUTDIR
Prints the written paths separated by ';' (a CMake list).
"""
import pathlib
import re
import sys


def main() -> None:
    readme, outdir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    outdir.mkdir(parents=True, exist_ok=True)
    blocks = re.findall(r"^```c\n(.*?)^```", readme.read_text(), flags=re.S | re.M)
    written = []
    for number, code in enumerate(b for b in blocks if "main(" in b):
        path = outdir / f"readme_example_{number + 1}.c"
        path.write_text(code)
        written.append(str(path))
    if not written:
        sys.exit(f"{readme} has no C example with a main()")
    print(";".join(written))


if __name__ == "__main__":
    main()
