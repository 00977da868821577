#!/usr/bin/env bash
# Renders the SVG and HTML explanations of a few datatypes in headless Chromium (Debian's
# chromium, installed by scripts/install-deps.sh) and fails unless each page loads without
# errors and draws something: the DOM Chromium dumps must hold the picture and no XML parse
# error, the console must be free of errors, and each screenshot must be mostly white with
# enough coloured pixels. Screenshots are left in OUTDIR (build/explain-render) to look at.
#
# Then the report of a trace (mpi-dtype-explain --trace FILE --format html) is rendered the
# same way, and opened at #sort=3 to check that its table sorts by size. The trace files are
# the TRACE arguments; without them the script makes one: it builds tests/trace/traced.c
# against the libmpi_dtype.so next to the tool (target/release) or in ../lib (an install)
# and runs five of its scenarios with MPI_DTYPE_TRACE.
#
# Usage: scripts/test-explain-render.sh [PATH/TO/mpi-dtype-explain] [OUTDIR] [TRACE...]
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${1:-target/release/mpi-dtype-explain}
out=${2:-build/explain-render}
traces=("${@:3}")
mkdir -p "$out"
out=$(cd "$out" && pwd)

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "chromium is not installed (scripts/install-deps.sh installs it)" >&2
  exit 1
fi

# name | expression
examples=(
  "particle|struct([1,1,3], [0,8,16], [MPI_INT, MPI_DOUBLE, MPI_CHAR])"
  "column|resized(vector(4, 1, 4, MPI_DOUBLE), 0, 8)"
  "forgotten_resize|vector(3, 1, 4, MPI_DOUBLE_INT)"
  "overlap|hindexed([1, 2], [0, 4], MPI_DOUBLE)"
  "markers|struct([1, 1, 1, 1], [-16, -8, 0, 24], [MPI_LB, MPI_DOUBLE, MPI_INT, MPI_UB])"
  "subarray|subarray([6, 8], [3, 4], [1, 2], C, MPI_FLOAT)"
  "million|hvector(1000000, 2, 56, MPI_DOUBLE)"
  "empty|contiguous(0, MPI_INT)"
)

# Chromium as root needs --no-sandbox; a private profile keeps runs apart.
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chrome() {
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$profile" --enable-logging=stderr --v=0 "$@"
}

# Fails unless the PNG $1 is a picture: mostly white background, at least 400 coloured pixels.
check_png() {
  python3 - "$1" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, width, height, depth, colour = 8, b"", 0, 0, 0, 0
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        width, height, depth, colour = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
assert depth == 8 and colour in (2, 6), f"unexpected PNG format {depth}/{colour}"
channels = 3 if colour == 2 else 4
raw = zlib.decompress(idat)
stride = width * channels
rows, previous = [], bytearray(stride)
for y in range(height):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - channels] if i >= channels else 0
        b = previous[i]
        c = previous[i - channels] if i >= channels else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    previous = line
pixels = width * height
coloured = white = 0
for line in rows:
    for x in range(0, stride, channels):
        r, g, b = line[x], line[x + 1], line[x + 2]
        if r > 245 and g > 245 and b > 245:
            white += 1
        elif max(r, g, b) - min(r, g, b) > 40:
            coloured += 1
print(f"{sys.argv[1]}: {width}x{height}, {100 * white / pixels:.0f}% white, {100 * coloured / pixels:.1f}% coloured")
assert white > 0.4 * pixels, "the picture is not on a white page"
assert coloured > 400, "the picture has almost nothing coloured in it"
PY
}

failures=0
for example in "${examples[@]}"; do
  name=${example%%|*}
  expression=${example#*|}
  "$tool" "$expression" --format svg > "$out/$name.svg"
  "$tool" "$expression" --format html > "$out/$name.html"
  size=$(stat -c %s "$out/$name.svg")
  if [ "$size" -gt 1000000 ]; then
    echo "FAILED $name: the SVG is $size bytes" >&2
    failures=$((failures + 1))
  fi
  height=$(sed -n 's/^<svg [^>]* height="\([0-9.]*\)".*/\1/p' "$out/$name.svg" | head -1)
  height=${height%.*}
  for page in svg html; do
    file="$out/$name.$page"
    if [ "$page" = svg ]; then window="1040,$((height + 10))"; else window="1200,1400"; fi
    chrome --dump-dom "file://$file" > "$out/$name.$page.dom" 2> "$out/$name.$page.log" || true
    chrome --window-size="$window" --screenshot="$out/$name.$page.png" "file://$file" \
      >> "$out/$name.$page.log" 2>&1 || true
    problem=""
    grep -q "<svg" "$out/$name.$page.dom" || problem="no <svg> in the loaded page"
    grep -qi "parsererror\|This page contains the following errors" "$out/$name.$page.dom" \
      && problem="the page did not parse"
    grep -E "CONSOLE|Uncaught|Failed to load|net::ERR" "$out/$name.$page.log" \
      && problem="errors on the console"
    [ -s "$out/$name.$page.png" ] || problem="no screenshot"
    if [ -z "$problem" ] && ! check_png "$out/$name.$page.png"; then
      problem="the screenshot shows no picture"
    fi
    if [ -n "$problem" ]; then
      echo "FAILED $name.$page: $problem (see $out/$name.$page.log)" >&2
      failures=$((failures + 1))
    fi
  done
done
# ---- the report of a trace ------------------------------------------------------------------
if [ ${#traces[@]} -eq 0 ]; then
  tooldir=$(cd "$(dirname "$tool")" && pwd)
  libdir=""
  for d in "$tooldir" "$tooldir/../lib"; do
    if [ -f "$d/libmpi_dtype.so" ]; then libdir=$(cd "$d" && pwd); break; fi
  done
  if [ -z "$libdir" ]; then
    echo "FAILED trace: no libmpi_dtype.so next to $tool or in its ../lib" >&2
    exit 1
  fi
  cc -std=c99 -Wall -Wextra -Werror -O1 -rdynamic -Iinclude tests/trace/traced.c -o "$out/traced" \
    -L"$libdir" -lmpi_dtype -Wl,-rpath,"$libdir"
  rm -f "$out/trace.jsonl"
  for scenario in clean overlap leak uncommitted twice; do
    MPI_DTYPE_TRACE="$out/trace.jsonl" "$out/traced" "$scenario"
  done
  traces=("$out/trace.jsonl")
fi
trace_args=()
for t in "${traces[@]}"; do trace_args+=(--trace "$t"); done
"$tool" "${trace_args[@]}" --format html > "$out/trace.html"
file="$out/trace.html"
chrome --dump-dom "file://$file" > "$out/trace.html.dom" 2> "$out/trace.html.log" || true
chrome --dump-dom "file://$file#sort=3" > "$out/trace.sorted.dom" 2>> "$out/trace.html.log" || true
chrome --window-size=1500,1400 --screenshot="$out/trace.html.png" "file://$file" \
  >> "$out/trace.html.log" 2>&1 || true
problem=""
grep -q '<table id="types">' "$out/trace.html.dom" || problem="no table of types in the loaded page"
grep -E "CONSOLE|Uncaught|Failed to load|net::ERR" "$out/trace.html.log" \
  && problem="errors on the console"
# Sorted by size (column 3): the heading says so and the sizes of the rows ascend.
python3 - "$out/trace.sorted.dom" <<'PY' || problem="the table did not sort by size"
import re, sys
dom = open(sys.argv[1]).read()
assert 'data-order="asc"' in dom, "no column is marked sorted"
body = dom[dom.index('<table id="types">'):]
body = body[body.index("<tbody>"):body.index("</tbody>")]
sizes = [int(row[1]) for row in (re.findall(r'data-v="([^"]*)"', r) for r in body.split("<tr>")[1:])]
assert len(sizes) > 1 and sizes == sorted(sizes), sizes
print(f"trace report sorted by size: {len(sizes)} rows")
PY
if [ -z "$problem" ] && ! check_png "$out/trace.html.png"; then
  problem="the screenshot shows no picture"
fi
if [ -n "$problem" ]; then
  echo "FAILED trace.html: $problem (see $out/trace.html.log)" >&2
  failures=$((failures + 1))
fi

total=$((2 * ${#examples[@]} + 1))
echo "$((total - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
