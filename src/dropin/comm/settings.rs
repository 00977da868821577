//! What the three environment variables of the drop-in layer's messages choose, each read
//! once: `MPI_DTYPE_COMM`, the path of the messages of derived types ([`super::route`]),
//! `MPI_DTYPE_PEERS`, who the process exchanges messages with ([`super::peers`]), and
//! `MPI_DTYPE_TRANSPORT`, how messages move between processes of one node
//! ([`super::node_local`]). An unknown
//! value is reported on stderr and read as the default.

use std::sync::OnceLock;

/// What `MPI_DTYPE_COMM` asks for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Decide per type.
    Auto,
    /// Pack every derived type of this library with the engine (except the sends of a type
    /// whose basic entries differ in size and whose signature has short runs, over an MPI not
    /// known to receive them whole).
    Engine,
    /// Let the MPI behind move every type.
    Mpi,
}

/// The mode `MPI_DTYPE_COMM` sets, read once (`auto` if unset; an unknown value is reported
/// on stderr and read as `auto`). Every message asks it: once read, it is one load, inline.
#[inline]
pub fn mode() -> Mode {
    static MODE: OnceLock<Mode> = OnceLock::new();
    match MODE.get() {
        Some(&mode) => mode,
        None => read_mode(&MODE),
    }
}

/// [`mode`] at its first call.
#[cold]
fn read_mode(cell: &OnceLock<Mode>) -> Mode {
    let choices = [
        ("auto", Mode::Auto),
        ("engine", Mode::Engine),
        ("mpi", Mode::Mpi),
    ];
    read_once(cell, "MPI_DTYPE_COMM", &choices)
}

/// The value of the environment variable `name` among `choices` ([`choose`]), read into
/// `cell` at the first call.
fn read_once<T: Copy>(cell: &OnceLock<T>, name: &str, choices: &[(&str, T)]) -> T {
    *cell.get_or_init(|| choose(name, &std::env::var(name).unwrap_or_default(), choices))
}

/// What `value`, the value of the environment variable `name`, chooses among `choices` (name
/// and value, the first the default, taken when `value` is empty); an unknown value is
/// reported on stderr and read as the default.
fn choose<T: Copy>(name: &str, value: &str, choices: &[(&str, T)]) -> T {
    let default = choices[0];
    if value.is_empty() {
        return default.1;
    }
    match choices.iter().find(|(choice, _)| *choice == value) {
        Some(&(_, chosen)) => chosen,
        None => {
            let names: Vec<&str> = choices.iter().map(|(choice, _)| *choice).collect();
            crate::diagnostic::line(format_args!(
                "mpi-dtype: {name}={value:?} is none of {}: using {}",
                names.join(", "),
                default.0
            ));
            default.1
        }
    }
}

/// What `MPI_DTYPE_TRANSPORT` chooses: how messages of derived types move between the
/// processes of one node ([`super::node_local`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Transport {
    /// As the path of each message says: the MPI behind moves them.
    Mpi,
    /// Through shared memory, packing and unpacking at once, where every process runs this
    /// library on this node.
    Shm,
}

/// The transport `MPI_DTYPE_TRANSPORT` names, read once (`mpi` if unset). Every message
/// asks it: once read, it is one load, inline.
#[inline]
pub fn transport() -> Transport {
    static TRANSPORT: OnceLock<Transport> = OnceLock::new();
    match TRANSPORT.get() {
        Some(&transport) => transport,
        None => read_once(
            &TRANSPORT,
            "MPI_DTYPE_TRANSPORT",
            &[("mpi", Transport::Mpi), ("shm", Transport::Shm)],
        ),
    }
}

/// What `MPI_DTYPE_PEERS` says.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Peers {
    /// Learn it at `MPI_Init` from the markers ([`super::peers`]).
    Auto,
    /// Assume nothing, leave no marker.
    Any,
    /// Every peer runs this library.
    Preloaded,
}

/// The peers `MPI_DTYPE_PEERS` names, read once (`auto` if unset).
pub fn peers() -> Peers {
    static PEERS: OnceLock<Peers> = OnceLock::new();
    let choices = [
        ("auto", Peers::Auto),
        ("any", Peers::Any),
        ("preloaded", Peers::Preloaded),
    ];
    read_once(&PEERS, "MPI_DTYPE_PEERS", &choices)
}

#[cfg(test)]
mod tests {
    use super::choose;

    #[test]
    fn settings_take_a_known_value_or_the_default() {
        let choices = [("auto", 0), ("any", 1), ("preloaded", 2)];
        let cases = [
            ("", 0),
            ("preloaded", 2),
            ("any", 1),
            ("auto", 0),
            ("all", 0),
            ("PRELOADED", 0),
        ];
        for (value, expected) in cases {
            assert_eq!(
                choose("MPI_DTYPE_PEERS", value, &choices),
                expected,
                "{value:?}"
            );
        }
    }
}
