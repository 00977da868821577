//! The core's error value: an error class, named without any ABI's number, and a message.

/// The MPI error classes the core raises. The C library maps each to the `MPI_ERR_*` number of
/// the ABI it is built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorClass {
    /// `MPI_ERR_ARG`: an argument out of range, or arithmetic beyond 64 bits.
    Arg,
    /// `MPI_ERR_COUNT`: a negative or otherwise invalid count.
    Count,
    /// `MPI_ERR_TYPE`: an invalid datatype.
    Type,
    /// `MPI_ERR_RANK`: a rank outside its group.
    Rank,
    /// `MPI_ERR_TRUNCATE`: data that does not fit the room it is given.
    Truncate,
    /// `MPI_ERR_OP`: a reduction operation not defined for a datatype.
    Op,
}

impl ErrorClass {
    /// The class's name in the standard, `MPI_ERR_ARG` and so on.
    pub fn name(self) -> &'static str {
        match self {
            ErrorClass::Arg => "MPI_ERR_ARG",
            ErrorClass::Count => "MPI_ERR_COUNT",
            ErrorClass::Type => "MPI_ERR_TYPE",
            ErrorClass::Rank => "MPI_ERR_RANK",
            ErrorClass::Truncate => "MPI_ERR_TRUNCATE",
            ErrorClass::Op => "MPI_ERR_OP",
        }
    }
}

/// An error of the core: its class and a message that names the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// The MPI error class.
    pub class: ErrorClass,
    /// What went wrong, in words, without the function name.
    pub message: String,
}

impl Error {
    /// An error of `class` with `message`.
    pub fn new(class: ErrorClass, message: impl Into<String>) -> Self {
        Error {
            class,
            message: message.into(),
        }
    }
    /// [`ErrorClass::Arg`] for an argument that is out of range.
    pub fn arg(message: impl Into<String>) -> Self {
        Self::new(ErrorClass::Arg, message)
    }
    /// [`ErrorClass::Count`] for a negative or otherwise invalid count.
    pub fn count(message: impl Into<String>) -> Self {
        Self::new(ErrorClass::Count, message)
    }
    /// [`ErrorClass::Type`] for an invalid datatype.
    pub fn datatype(message: impl Into<String>) -> Self {
        Self::new(ErrorClass::Type, message)
    }
    /// [`ErrorClass::Rank`] for a rank outside its group.
    pub fn rank(message: impl Into<String>) -> Self {
        Self::new(ErrorClass::Rank, message)
    }
    /// [`ErrorClass::Truncate`] for data that does not fit the room it is given.
    pub fn truncate(message: impl Into<String>) -> Self {
        Self::new(ErrorClass::Truncate, message)
    }
    /// [`ErrorClass::Arg`] for an arithmetic result that does not fit a 64-bit
    /// `MPI_Aint`/`MPI_Count`.
    #[cold]
    pub fn overflow(what: &str) -> Self {
        Self::arg(format!(
            "{what} overflows the 64-bit range of MPI_Aint/MPI_Count"
        ))
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Result of a core operation.
pub type Result<T> = std::result::Result<T, Error>;
