# The scratch directories of the multi-process drop-in tests (files their programs write,
# under TMPDIR). Sourced by scripts/test-drop-in-programs.sh and scripts/test-drop-in-hdf5.sh
# (bash); defines one command.

# Removes the scratch directory $1. A rank of a program that aborted may still be writing its
# last file there for a moment after mpiexec returned (rm then finds the directory not
# empty), so it tries again, and a directory that will not go only leaves a note on stderr.
clear_scratch() {
    local try
    for try in 1 2 3 4 5; do
        rm -rf "$1" 2>/dev/null && return 0
        sleep 1
    done
    echo "could not remove the scratch directory $1" >&2
}
