//! The reading side of the traces that the C library records with `MPI_DTYPE_TRACE`
//! (`docs/explain.md`, "Tracing a program"): [`read`] takes the JSON lines back, and
//! [`report`] makes the sortable HTML page or the text of `mpi-dtype-explain --trace`.

pub mod read;
pub mod report;
