//! The files of MPI-IO in the one-process world: each open file with its access mode, view,
//! individual and shared file pointers, atomicity, hints and error handler, and the reads and
//! writes through its view. Data move between the program's memory and the file through the
//! pack engine: a read gathers the view's file bytes into packed chunks and unpacks them with
//! the memory type, a write packs the memory and scatters the chunks to the view's bytes, with
//! positioned reads and writes of the file (`pread`, `pwrite`). The one process is every
//! file's only process, so a collective access is an independent one and the shared pointer is
//! the process's own.

use super::datareps::Conversion;
pub use super::datareps::Datarep;
use super::slab::Slab;
use crate::abi::{
    MPI_Datatype, MPI_Errhandler, MPI_ERR_ACCESS, MPI_ERR_AMODE, MPI_ERR_ARG, MPI_ERR_BAD_FILE,
    MPI_ERR_FILE_EXISTS, MPI_ERR_IO, MPI_ERR_NO_SPACE, MPI_ERR_NO_SUCH_FILE, MPI_ERR_QUOTA,
    MPI_ERR_READ_ONLY, MPI_ERR_UNSUPPORTED_OPERATION,
};
use crate::datatype::Datatype;
use crate::error::{MpiError, MpiResult};
use crate::file_view::FileView;
use crate::info::Pairs;
use crate::pack::Representation;
use parking_lot::Mutex;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::sync::{Arc, LazyLock};

/// Bytes moved per chunk of a native read or write: the packed bytes of one chunk are held
/// at once, whatever the size of the access.
const CHUNK: i64 = 4 << 20;

/// How a file is opened (`amode` of `MPI_File_open`), read from its bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Access {
    /// `MPI_MODE_RDONLY` or `MPI_MODE_RDWR`.
    pub read: bool,
    /// `MPI_MODE_WRONLY` or `MPI_MODE_RDWR`.
    pub write: bool,
    /// `MPI_MODE_CREATE`.
    pub create: bool,
    /// `MPI_MODE_EXCL`: creating a file that exists fails.
    pub exclusive: bool,
    /// `MPI_MODE_DELETE_ON_CLOSE`.
    pub delete_on_close: bool,
    /// `MPI_MODE_APPEND`: both pointers start at the end of the file.
    pub append: bool,
    /// `MPI_MODE_SEQUENTIAL`: only the shared pointer may be used.
    pub sequential: bool,
}

impl Access {
    /// Checks the combination (`MPI_ERR_AMODE`): exactly one of read-only, write-only and
    /// read-write, given as `modes` of those three; no creation of a read-only file; no
    /// sequential access to a read-write one.
    pub fn check(&self, modes: usize) -> MpiResult<()> {
        let problem = if modes != 1 {
            Some("exactly one of MPI_MODE_RDONLY, MPI_MODE_WRONLY and MPI_MODE_RDWR must be given")
        } else if self.read && !self.write && (self.create || self.exclusive) {
            Some("MPI_MODE_RDONLY does not go with MPI_MODE_CREATE or MPI_MODE_EXCL")
        } else if self.read && self.write && self.sequential {
            Some("MPI_MODE_SEQUENTIAL does not go with MPI_MODE_RDWR")
        } else {
            None
        };
        problem.map_or(Ok(()), |p| Err(MpiError::new(MPI_ERR_AMODE, p)))
    }
}

/// A file view: the mapping of its data stream to the file, and what it was made of.
#[derive(Clone, Debug)]
pub struct View {
    /// Where the stream's bytes lie in the file.
    pub mapping: FileView,
    /// The etype.
    pub etype: Arc<Datatype>,
    /// The filetype.
    pub filetype: Arc<Datatype>,
    /// The representation.
    pub datarep: Datarep,
}

impl View {
    /// The view of `filetype` from byte `disp`, in units of `etype`, in `datarep`.
    pub fn new(
        disp: i64,
        etype: Arc<Datatype>,
        filetype: Arc<Datatype>,
        datarep: Datarep,
    ) -> MpiResult<View> {
        datarep.check_sizes_now(&etype, "etype")?;
        datarep.check_sizes_now(&filetype, "filetype")?;
        Ok(View {
            mapping: FileView::new(disp, &etype, &filetype)?,
            etype,
            filetype,
            datarep,
        })
    }
}

/// Which split collective a file has begun (`MPI_File_read_all_begin`, ...), and the bytes it
/// moved, for its `_end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// The `_begin` function's stem (`"MPI_File_read_all"`, ...).
    pub stem: &'static str,
    /// The bytes moved.
    pub bytes: i64,
}

/// An open file.
#[derive(Debug)]
pub struct OpenFile {
    /// The file.
    pub file: std::fs::File,
    /// The system lets the file be read (also where the program only writes it, if the
    /// system allows): a sieved write reads its span first, so a file that cannot be read is
    /// written piece by piece.
    pub readable: bool,
    /// Its path, for `MPI_MODE_DELETE_ON_CLOSE`.
    pub path: PathBuf,
    /// How it was opened.
    pub access: Access,
    /// The `amode` bits as given, for `MPI_File_get_amode`.
    pub amode: std::os::raw::c_int,
    /// The view.
    pub view: View,
    /// The individual file pointer, in etypes.
    pub individual: i64,
    /// The shared file pointer, in etypes.
    pub shared: i64,
    /// Atomic mode (`MPI_File_set_atomicity`).
    pub atomic: bool,
    /// The error handler.
    pub errhandler: MPI_Errhandler,
    /// The hints kept (`MPI_File_set_info`).
    pub info: Pairs,
    /// The split collective begun and not ended.
    pub split: Option<Split>,
}

/// The error of a failed operation of the file system, in the class the standard gives it.
pub fn io_error(what: &str, error: &std::io::Error) -> MpiError {
    use std::io::ErrorKind;
    let class = match error.kind() {
        ErrorKind::NotFound => MPI_ERR_NO_SUCH_FILE,
        ErrorKind::PermissionDenied => MPI_ERR_ACCESS,
        ErrorKind::AlreadyExists => MPI_ERR_FILE_EXISTS,
        ErrorKind::ReadOnlyFilesystem => MPI_ERR_READ_ONLY,
        ErrorKind::StorageFull => MPI_ERR_NO_SPACE,
        ErrorKind::QuotaExceeded => MPI_ERR_QUOTA,
        ErrorKind::InvalidFilename | ErrorKind::InvalidInput | ErrorKind::IsADirectory => {
            MPI_ERR_BAD_FILE
        }
        _ => MPI_ERR_IO,
    };
    MpiError::new(class, format!("{what}: {error}"))
}

/// The path a file name names: the name without the prefix that names a file system to
/// ROMIO (`ufs:`, `nfs:`, ...), which this library reads as the local one.
pub fn path_of(name: &str) -> PathBuf {
    const SYSTEMS: [&str; 6] = ["ufs:", "nfs:", "lustre:", "gpfs:", "pvfs2:", "testfs:"];
    let bare = SYSTEMS
        .iter()
        .find_map(|prefix| name.strip_prefix(prefix))
        .unwrap_or(name);
    PathBuf::from(bare)
}

/// Opens the file `name` as `access` says, with the view of bytes from its start, the
/// pointers at 0 (at its end with `MPI_MODE_APPEND`) and the error handler `errhandler`.
pub fn open(
    name: &str,
    (access, amode): (Access, std::os::raw::c_int),
    info: Pairs,
    errhandler: MPI_Errhandler,
    bytes: &Arc<Datatype>,
) -> MpiResult<OpenFile> {
    let path = path_of(name);
    let open_as = |read: bool| {
        std::fs::OpenOptions::new()
            .read(read)
            .write(access.write)
            .create(access.create && !access.exclusive)
            .create_new(access.create && access.exclusive)
            .open(&path)
    };
    // A file written only is opened for reading too where the system lets it, as ROMIO does:
    // a sieved write reads the holes of its span first.
    let readable_too = access.write && !access.read;
    let (file, readable) = match readable_too.then(|| open_as(true)) {
        Some(Ok(file)) => (Ok(file), true),
        _ => (open_as(access.read), access.read),
    };
    let file = file.map_err(|e| io_error(&format!("opening {name:?}"), &e))?;
    let view = View::new(0, Arc::clone(bytes), Arc::clone(bytes), Datarep::Native)?;
    let mut open = OpenFile {
        file,
        readable,
        path,
        access,
        amode,
        view,
        individual: 0,
        shared: 0,
        atomic: false,
        errhandler,
        info,
        split: None,
    };
    if access.append {
        let end = open.end_position()?;
        open.individual = end;
        open.shared = end;
    }
    Ok(open)
}

/// Where an access starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pointer {
    /// At this offset, in etypes (`MPI_File_read_at`, ...).
    Explicit(i64),
    /// At the individual file pointer, which moves past the data (`MPI_File_read`, ...).
    Individual,
    /// At the shared file pointer, which moves past the data (`MPI_File_read_shared`,
    /// `MPI_File_read_ordered`, ...).
    Shared,
}

/// Where `MPI_File_seek` counts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Whence {
    /// `MPI_SEEK_SET`: the start of the view.
    Set,
    /// `MPI_SEEK_CUR`: the pointer.
    Current,
    /// `MPI_SEEK_END`: the end of the file, seen through the view.
    End,
}

impl OpenFile {
    /// The size of the file in bytes.
    pub fn size(&self) -> MpiResult<i64> {
        let meta = self
            .file
            .metadata()
            .map_err(|e| io_error("reading the file's size", &e))?;
        Ok(meta.len() as i64)
    }

    /// The end of the file as a position of the view, in etypes (a partly covered etype
    /// counts whole).
    pub fn end_position(&self) -> MpiResult<i64> {
        let data = self.view.mapping.stream_before(self.size()?);
        let etype_size = self.view.mapping.etype_size();
        Ok((data + etype_size - 1) / etype_size)
    }

    /// Sets the view (`MPI_File_set_view`): both pointers go back to 0.
    pub fn set_view(&mut self, view: View) {
        self.view = view;
        self.individual = 0;
        self.shared = 0;
    }

    /// Moves the individual (`shared == false`) or shared pointer (`MPI_File_seek`,
    /// `MPI_File_seek_shared`): `MPI_ERR_ARG` if it would go before the view's start. Neither
    /// moves in a file opened with `MPI_MODE_SEQUENTIAL` (`MPI_ERR_UNSUPPORTED_OPERATION`, as
    /// ROMIO answers).
    pub fn seek(&mut self, offset: i64, whence: Whence, shared: bool) -> MpiResult<()> {
        self.check_not_sequential(if shared {
            "MPI_File_seek_shared"
        } else {
            "MPI_File_seek"
        })?;
        let pointer = if shared {
            Pointer::Shared
        } else {
            Pointer::Individual
        };
        let from = match whence {
            Whence::Set => 0,
            Whence::Current => self.start_of(pointer),
            Whence::End => self.end_position()?,
        };
        let to = from
            .checked_add(offset)
            .filter(|&to| to >= 0)
            .ok_or_else(|| {
                MpiError::new(
                    MPI_ERR_ARG,
                    format!("offset {offset} from {from} is before the start of the view"),
                )
            })?;
        self.move_pointer(pointer, to);
        Ok(())
    }

    /// `MPI_ERR_UNSUPPORTED_OPERATION` for `function` on a file opened with
    /// `MPI_MODE_SEQUENTIAL`, which allows the shared pointer only.
    pub fn check_not_sequential(&self, function: &str) -> MpiResult<()> {
        if self.access.sequential {
            return Err(MpiError::new(
                MPI_ERR_UNSUPPORTED_OPERATION,
                format!("{function} is not allowed on a file opened with MPI_MODE_SEQUENTIAL"),
            ));
        }
        Ok(())
    }

    /// Changes the file's size (`MPI_File_set_size`), or only grows it (`grow_only`,
    /// `MPI_File_preallocate`).
    pub fn resize(&mut self, size: i64, grow_only: bool) -> MpiResult<()> {
        self.check_not_sequential("changing the size")?;
        if size < 0 {
            return Err(MpiError::new(
                MPI_ERR_ARG,
                format!("the size {size} is negative"),
            ));
        }
        if !self.access.write {
            return Err(MpiError::new(
                MPI_ERR_READ_ONLY,
                "the file is not open for writing",
            ));
        }
        if grow_only && self.size()? >= size {
            return Ok(());
        }
        self.file
            .set_len(size as u64)
            .map_err(|e| io_error("changing the file's size", &e))
    }

    /// Where an access through `pointer` starts, in etypes, and the pointer it moves.
    fn start_of(&self, pointer: Pointer) -> i64 {
        match pointer {
            Pointer::Explicit(offset) => offset,
            Pointer::Individual => self.individual,
            Pointer::Shared => self.shared,
        }
    }

    /// Reads (`write == false`) or writes `count` copies of `memtype` at `memory` through the
    /// view in its native or external32 representation, from where `pointer` says, and moves
    /// that pointer past the data; returns the bytes moved (fewer than asked for a read that
    /// meets the end of the file). A representation of the program's is [`access_file`]'s.
    ///
    /// # Safety
    /// Every byte the type map of the copies addresses relative to `memory` is readable (a
    /// write) or writable (a read).
    pub unsafe fn access(
        &mut self,
        write: bool,
        pointer: Pointer,
        (memory, count, memtype): (*mut u8, i64, &Datatype),
    ) -> MpiResult<i64> {
        self.view.datarep.check_sizes(memtype, "datatype")?;
        let bytes = crate::pack::packed_size(memtype, count)?;
        let (offset, start) = self.placed(write, pointer, bytes)?;
        // SAFETY: the caller's contract.
        let moved = unsafe {
            match self.view.datarep.representation() {
                Representation::Native => self.move_native(write, start, (memory, count, memtype)),
                representation => {
                    self.convert_whole(representation, write, start, (memory, count, memtype))
                }
            }
        }?;
        self.advance(pointer, offset, moved);
        Ok(moved)
    }

    /// Checks an access of `bytes` bytes through `pointer` (the file's mode, whole etypes, an
    /// offset that is not negative and whose bytes fit an `MPI_Offset`); where it starts, in
    /// etypes and in bytes of the stream.
    fn placed(&self, write: bool, pointer: Pointer, bytes: i64) -> MpiResult<(i64, i64)> {
        self.check_access(write, pointer)?;
        let etype_size = self.view.mapping.etype_size();
        if bytes % etype_size != 0 {
            return Err(MpiError::new(
                MPI_ERR_IO,
                format!(
                    "{bytes} bytes are no whole number of etypes of {etype_size} bytes: only whole etypes can be accessed"
                ),
            ));
        }
        let offset = self.start_of(pointer);
        if offset < 0 {
            return Err(MpiError::new(
                MPI_ERR_ARG,
                format!("the offset {offset} is negative"),
            ));
        }
        let start = offset
            .checked_mul(etype_size)
            .filter(|start| start.checked_add(bytes).is_some())
            .ok_or_else(|| {
                MpiError::new(MPI_ERR_ARG, format!("the offset {offset} is too large"))
            })?;
        Ok((offset, start))
    }

    /// Moves the pointer an access through `pointer` from `offset` used past the `moved`
    /// bytes.
    fn advance(&mut self, pointer: Pointer, offset: i64, moved: i64) {
        self.move_pointer(pointer, offset + moved / self.view.mapping.etype_size());
    }

    /// Sets the individual or shared pointer to `to` (nothing for an explicit offset).
    fn move_pointer(&mut self, pointer: Pointer, to: i64) {
        match pointer {
            Pointer::Explicit(_) => {}
            Pointer::Individual => self.individual = to,
            Pointer::Shared => self.shared = to,
        }
    }

    /// Writes `stream`, bytes in the file's representation, through `pointer`.
    fn write_stream(&mut self, pointer: Pointer, stream: &[u8]) -> MpiResult<i64> {
        let bytes = stream.len() as i64;
        let (offset, start) = self.placed(true, pointer, bytes)?;
        self.scatter(start, stream)?;
        self.advance(pointer, offset, bytes);
        Ok(bytes)
    }

    /// Reads `bytes` bytes of the stream through `pointer`, fewer at the end of the file:
    /// whole copies of `copy_size` bytes.
    fn read_stream(&mut self, pointer: Pointer, bytes: i64, copy_size: i64) -> MpiResult<Vec<u8>> {
        let (offset, start) = self.placed(false, pointer, bytes)?;
        let mut stream = vec![0u8; bytes as usize];
        let got = self.gather(start, &mut stream)? as i64;
        let whole = if copy_size == 0 {
            got
        } else {
            got - got % copy_size
        };
        stream.truncate(whole as usize);
        self.advance(pointer, offset, whole);
        Ok(stream)
    }

    /// Checks that the file allows the access.
    fn check_access(&self, write: bool, pointer: Pointer) -> MpiResult<()> {
        if pointer != Pointer::Shared {
            self.check_not_sequential(
                "an access through the individual pointer or at an explicit offset",
            )?;
        }
        match (write, self.access.read, self.access.write) {
            (true, _, false) => Err(MpiError::new(
                MPI_ERR_READ_ONLY,
                "the file is open for reading only",
            )),
            (false, false, _) => Err(MpiError::new(
                MPI_ERR_ACCESS,
                "the file is open for writing only",
            )),
            _ => Ok(()),
        }
    }

    /// Writes the file bytes of the stream's bytes `start..start + data.len()`: the pieces
    /// one by one, or, where they lie close together ([`Self::sieved`]) and the file can be
    /// read, the span from the first to the last at once, its holes read first and written
    /// back as they were, the data placed in it by the filetype's plan.
    fn scatter(&self, start: i64, data: &[u8]) -> MpiResult<()> {
        let write = |bytes: &[u8], at: u64| {
            self.file
                .write_all_at(bytes, at)
                .map_err(|e| io_error("writing the file", &e))
        };
        let sieved = match self.readable {
            true => self.sieved(start, data.len())?,
            false => None,
        };
        if let Some((from, span)) = sieved {
            let mut block = vec![0u8; span];
            read_fully(&self.file, &mut block, from)
                .map_err(|e| io_error("reading the file", &e))?;
            self.view
                .mapping
                .unpack_into_image(&mut block, from as i64, start, data)?;
            return write(&block, from);
        }
        let mut done = 0usize;
        self.each_piece(start, data.len(), |at, len| {
            write(&data[done..done + len], at)?;
            done += len;
            Ok(true)
        })
    }

    /// Reads the file bytes of the stream's bytes `start..start + into.len()` (the pieces one
    /// by one, or their span at once where they lie close together, the data taken from it by
    /// the filetype's plan); returns how many were read before the end of the file.
    fn gather(&self, start: i64, into: &mut [u8]) -> MpiResult<usize> {
        let read = |bytes: &mut [u8], at: u64| {
            read_fully(&self.file, bytes, at).map_err(|e| io_error("reading the file", &e))
        };
        if let Some((from, span)) = self.sieved(start, into.len())? {
            let mut block = vec![0u8; span];
            let got = read(&mut block, from)?;
            let before_end = self.view.mapping.stream_before(from as i64 + got as i64);
            let done = (before_end - start).clamp(0, into.len() as i64) as usize;
            self.view
                .mapping
                .pack_from_image(&block, from as i64, start, &mut into[..done])?;
            return Ok(done);
        }
        let mut done = 0usize;
        self.each_piece(start, into.len(), |at, len| {
            let n = read(&mut into[done..done + len], at)?;
            done += n;
            Ok(n == len)
        })?;
        Ok(done)
    }

    /// Where the file bytes of the stream's bytes `start..start + len` lie close enough
    /// together that one read (and write) of their span beats a call per piece (ROMIO's data
    /// sieving, here for the one process): in more than one piece, spanning at most
    /// [`SIEVE_BYTES_PER_PIECE`] a piece and [`SIEVE_SPAN`] in all. The span's start and
    /// length.
    fn sieved(&self, start: i64, len: usize) -> MpiResult<Option<(u64, usize)>> {
        let Some(reach) = self.view.mapping.reach(start, len as i64)? else {
            return Ok(None);
        };
        let span = (reach.end - reach.first) as usize;
        let close = span <= (reach.runs as usize).saturating_mul(SIEVE_BYTES_PER_PIECE);
        Ok((reach.runs > 1 && close && span <= SIEVE_SPAN).then_some((reach.first as u64, span)))
    }

    /// Calls `f(file_offset, length)` for the file pieces of the stream's bytes
    /// `start..start + len` in order, until it fails or returns false.
    fn each_piece(
        &self,
        start: i64,
        len: usize,
        mut f: impl FnMut(u64, usize) -> MpiResult<bool>,
    ) -> MpiResult<()> {
        let mut outcome = Ok(true);
        self.view
            .mapping
            .for_each_range(start, len as i64, |at, n| {
                if matches!(outcome, Ok(true)) {
                    outcome = f(at as u64, n as usize);
                }
                Ok(())
            })?;
        outcome.map(drop)
    }

    /// A native read (`write == false`) or write, chunk by chunk; a read stops at the end of
    /// the file.
    ///
    /// # Safety
    /// As for [`Self::access`].
    unsafe fn move_native(
        &self,
        write: bool,
        start: i64,
        (memory, count, memtype): (*mut u8, i64, &Datatype),
    ) -> MpiResult<i64> {
        let bytes = memtype.size() * count;
        if let Some(at) = memtype
            .one_run_at(count)
            .and_then(|at| isize::try_from(at).ok())
            .filter(|_| bytes > 0)
        {
            // The data are one run of memory: the file's pieces are read into it, or written
            // from it, with no copy in between.
            // SAFETY: the caller's contract: the copies' `bytes` bytes lie from `at` on.
            let run = unsafe { std::slice::from_raw_parts_mut(memory.offset(at), bytes as usize) };
            return match write {
                true => self.scatter(start, run).map(|()| bytes),
                false => self.gather(start, run).map(|got| got as i64),
            };
        }
        let mut chunk = vec![0u8; bytes.min(CHUNK) as usize];
        let mut done = 0i64;
        while done < bytes {
            let n = (bytes - done).min(CHUNK) as usize;
            let piece = &mut chunk[..n];
            let moved = if write {
                // SAFETY: the caller's contract; `piece` holds `n` bytes.
                unsafe { crate::plan::pack_range(&memtype.plan, count, memory, done, piece) };
                self.scatter(start + done, piece)?;
                n
            } else {
                let got = self.gather(start + done, piece)?;
                // SAFETY: the caller's contract; the first `got` bytes of `piece` were read.
                unsafe {
                    crate::plan::unpack_range(&memtype.plan, count, memory, done, &piece[..got])
                };
                got
            };
            done += moved as i64;
            if moved < n {
                break;
            }
        }
        Ok(done)
    }

    /// A read or write in a representation other than the native one, converted whole. A
    /// read that meets the end of the file converts the whole copies read.
    ///
    /// # Safety
    /// As for [`Self::access`].
    unsafe fn convert_whole(
        &self,
        representation: Representation,
        write: bool,
        start: i64,
        (memory, count, memtype): (*mut u8, i64, &Datatype),
    ) -> MpiResult<i64> {
        let bytes = representation.packed_size(memtype, count)?;
        let mut stream = vec![0u8; bytes as usize];
        let mut position = 0;
        if write {
            // SAFETY: the caller's contract; `stream` holds the packed bytes.
            unsafe {
                representation.pack(
                    memory,
                    count,
                    memtype,
                    stream.as_mut_ptr(),
                    bytes,
                    &mut position,
                )
            }?;
            self.scatter(start, &stream)?;
            return Ok(bytes);
        }
        let got = self.gather(start, &mut stream)? as i64;
        let copies = if memtype.size() == 0 {
            count
        } else {
            got / memtype.size()
        };
        // SAFETY: the caller's contract; `stream` holds `copies` whole packed copies.
        unsafe {
            representation.unpack(
                stream.as_ptr(),
                bytes,
                &mut position,
                memory,
                copies,
                memtype,
            )
        }?;
        Ok(copies * memtype.size())
    }
}

/// The most bytes of file a sieved access spans for each piece: a system call costs about
/// as long as copying this many bytes twice, as a sieved write does (its span read, then
/// written).
const SIEVE_BYTES_PER_PIECE: usize = 2048;
/// The most bytes one sieved read or write spans.
const SIEVE_SPAN: usize = 64 << 20;

/// Reads `into.len()` bytes at `at`, fewer only at the end of the file; how many.
fn read_fully(file: &std::fs::File, into: &mut [u8], at: u64) -> std::io::Result<usize> {
    let mut done = 0;
    while done < into.len() {
        match file.read_at(&mut into[done..], at + done as u64) {
            Ok(0) => break,
            Ok(n) => done += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(done)
}

/// Reads (`write == false`) or writes `count` copies of `memtype` (handle `handle`) at
/// `memory` through the view of the open file at `index`, from where `pointer` says, and
/// moves that pointer past the data; the bytes moved, or `None` if no file is open there. In a
/// representation of the program's, its functions run with no lock held: its extent function
/// for each basic type of the view and of `memtype`, then its conversion function, before a
/// write takes the file's lock or after a read released it.
///
/// # Safety
/// As for [`OpenFile::access`].
pub unsafe fn access_file(
    index: usize,
    write: bool,
    pointer: Pointer,
    (memory, count, memtype, handle): (*mut u8, i64, &Datatype, MPI_Datatype),
) -> Option<MpiResult<i64>> {
    let (datarep, etype, filetype) = with(index, |f| {
        (
            f.view.datarep.clone(),
            Arc::clone(&f.view.etype),
            Arc::clone(&f.view.filetype),
        )
    })?;
    let conversion = datarep.conversion(write);
    if let Conversion::None = conversion {
        // SAFETY: the caller's contract.
        return with(index, |f| unsafe {
            f.access(write, pointer, (memory, count, memtype))
        });
    }
    let converted = || -> MpiResult<Option<i64>> {
        datarep.check_sizes(&etype, "etype")?;
        datarep.check_sizes(&filetype, "filetype")?;
        datarep.check_sizes(memtype, "datatype")?;
        let size = memtype.size();
        let items = memtype.layout.elements;
        let extra = datarep.extra_state();
        let bytes = crate::pack::packed_size(memtype, count)?;
        if write {
            let mut stream = vec![0u8; bytes as usize];
            let file_bytes = (stream.as_mut_ptr(), size);
            // SAFETY: the caller's contract; `stream` holds `count` copies.
            unsafe { conversion.convert((memory, handle, count, items), file_bytes, extra)? };
            return with(index, |f| f.write_stream(pointer, &stream)).transpose();
        }
        let Some(read) = with(index, |f| f.read_stream(pointer, bytes, size)) else {
            return Ok(None);
        };
        let mut stream = read?;
        let copies = if size == 0 {
            count
        } else {
            stream.len() as i64 / size
        };
        let file_bytes = (stream.as_mut_ptr(), size);
        // SAFETY: the caller's contract; `stream` holds `copies` whole copies.
        unsafe { conversion.convert((memory, handle, copies, items), file_bytes, extra)? };
        Ok(Some(stream.len() as i64))
    };
    converted().transpose()
}

/// The open files, by the index their handles carry, each behind its own lock: a call on
/// one file waits for no other, and the program's conversion functions run with no lock of
/// the table held.
static FILES: LazyLock<Mutex<Slab<Arc<Mutex<OpenFile>>>>> = LazyLock::new(Mutex::default);

/// Keeps an open file; its index.
pub fn keep(file: OpenFile) -> usize {
    FILES.lock().insert(Arc::new(Mutex::new(file)))
}

/// Runs `f` on the open file at `index`; `None` if there is none.
pub fn with<R>(index: usize, f: impl FnOnce(&mut OpenFile) -> R) -> Option<R> {
    let file = FILES.lock().get(index).cloned()?;
    let mut file = file.lock();
    Some(f(&mut file))
}

/// Takes the open file at `index` out of the table (`MPI_File_close`); the file closes when
/// a call still running on it returns.
pub fn take(index: usize) -> Option<Arc<Mutex<OpenFile>>> {
    FILES.lock().remove(index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::construct::{named, vector};
    use crate::predefined::by_name;

    fn ty(name: &str) -> Arc<Datatype> {
        named(by_name(name).expect("a predefined type"))
    }

    fn rdwr() -> Access {
        Access {
            read: true,
            write: true,
            create: true,
            ..Access::default()
        }
    }

    fn temp_file(tag: &str) -> String {
        let dir = std::env::temp_dir();
        let path = dir.join(format!("mpi-dtype-files-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        path.to_string_lossy().into_owned()
    }

    /// The file `name` opened as `access` says, with the errors returned.
    fn open_as(name: &str, access: Access) -> OpenFile {
        let bytes = ty("MPI_BYTE");
        open(
            name,
            (access, 0),
            Pairs::default(),
            crate::abi::MPI_ERRORS_RETURN,
            &bytes,
        )
        .unwrap()
    }

    #[test]
    fn a_strided_view_writes_its_bytes_and_reads_them_back() {
        let name = temp_file("strided");
        let mut f = open_as(&name, rdwr());
        let int = ty("MPI_INT");
        // Two ints of every four, from byte 8.
        let filetype = vector(1, 2, 4, false, &int, false).unwrap();
        let filetype = crate::datatype::construct::resized(&filetype, 0, 16, false).unwrap();
        f.set_view(View::new(8, Arc::clone(&int), filetype, Datarep::Native).unwrap());
        let data: Vec<i32> = (1..=6).collect();
        // SAFETY: six ints.
        let moved = unsafe {
            f.access(
                true,
                Pointer::Individual,
                (data.as_ptr() as *mut u8, 6, &int),
            )
        }
        .unwrap();
        assert_eq!(moved, 24);
        assert_eq!(f.individual, 6);
        let raw = std::fs::read(&name).unwrap();
        // Bytes 8..16 hold 1, 2; 24..32 hold 3, 4; 40..48 hold 5, 6; the holes stay zero.
        let ints: Vec<i32> = raw
            .chunks(4)
            .map(|c| i32::from_ne_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(ints, vec![0, 0, 1, 2, 0, 0, 3, 4, 0, 0, 5, 6]);
        // Read back from etype 1 on: a read past the end returns what there is.
        let mut back = [0i32; 8];
        // SAFETY: eight ints.
        let got = unsafe {
            f.access(
                false,
                Pointer::Explicit(1),
                (back.as_mut_ptr() as *mut u8, 8, &int),
            )
        }
        .unwrap();
        assert_eq!(got, 20);
        assert_eq!(back, [2, 3, 4, 5, 6, 0, 0, 0]);
        assert_eq!(f.end_position().unwrap(), 6);
        f.seek(-2, Whence::End, true).unwrap();
        assert_eq!(f.shared, 4);
        std::fs::remove_file(&name).unwrap();
    }

    #[test]
    fn accesses_longer_than_a_chunk_cross_its_boundaries() {
        let name = temp_file("chunks");
        let mut f = open_as(&name, rdwr());
        let int = ty("MPI_INT");
        // Every other int in memory, to every other int of the file, more than 4 MiB of data.
        let n = CHUNK / 4 + 12_345;
        let every_other = vector(n, 1, 2, false, &int, false).unwrap();
        let filetype = crate::datatype::construct::resized(&int, 0, 8, false).unwrap();
        f.set_view(View::new(0, Arc::clone(&int), filetype, Datarep::Native).unwrap());
        let data: Vec<i32> = (0..2 * n as i32).collect();
        // SAFETY: 2n ints.
        unsafe {
            f.access(
                true,
                Pointer::Individual,
                (data.as_ptr() as *mut u8, 1, &every_other),
            )
        }
        .unwrap();
        let mut back = vec![-1i32; n as usize];
        // SAFETY: n ints.
        let got = unsafe {
            f.access(
                false,
                Pointer::Explicit(0),
                (back.as_mut_ptr() as *mut u8, n, &int),
            )
        }
        .unwrap();
        assert_eq!(got, 4 * n);
        assert!(back.iter().enumerate().all(|(k, &v)| v == 2 * k as i32));
        std::fs::remove_file(&name).unwrap();
    }

    /// Also in a file opened for writing only, whose holes the sieved write reads first.
    #[test]
    fn a_write_of_close_pieces_keeps_the_bytes_of_its_holes() {
        let write_only = Access {
            read: false,
            ..rdwr()
        };
        for (tag, access) in [("holes-rdwr", rdwr()), ("holes-wronly", write_only)] {
            holes_kept(tag, access);
        }
    }

    fn holes_kept(tag: &str, access: Access) {
        let name = temp_file(tag);
        std::fs::write(&name, [0xabu8; 20]).unwrap();
        let mut f = open_as(&name, access);
        assert!(f.readable);
        let byte = ty("MPI_BYTE");
        // One byte of every three from byte 2: written in one sieved span.
        let filetype = crate::datatype::construct::resized(&byte, 0, 3, false).unwrap();
        f.set_view(View::new(2, Arc::clone(&byte), filetype, Datarep::Native).unwrap());
        let data = [1u8, 2, 3, 4, 5, 6, 7, 8];
        // SAFETY: eight bytes.
        unsafe {
            f.access(
                true,
                Pointer::Individual,
                (data.as_ptr() as *mut u8, 8, &byte),
            )
        }
        .unwrap();
        let raw = std::fs::read(&name).unwrap();
        let mut want = vec![0xabu8; 24];
        for (k, &d) in data.iter().enumerate() {
            want[2 + 3 * k] = d;
        }
        // The file ends at the last byte written, 2 + 3 * 7 + 1 = 24 bytes; the holes past its
        // old end (20 bytes) read as zeros, as a sparse file's.
        want[21] = 0;
        want[22] = 0;
        assert_eq!(raw, want);
        std::fs::remove_file(&name).unwrap();
    }

    #[test]
    fn external32_stores_big_endian_and_reads_back() {
        let name = temp_file("ext32");
        let mut f = open_as(&name, rdwr());
        let int = ty("MPI_INT");
        f.set_view(View::new(0, Arc::clone(&int), Arc::clone(&int), Datarep::External32).unwrap());
        let data = [1i32, -2];
        // SAFETY: two ints.
        unsafe { f.access(true, Pointer::Shared, (data.as_ptr() as *mut u8, 2, &int)) }.unwrap();
        assert_eq!(
            std::fs::read(&name).unwrap(),
            [0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe]
        );
        let mut back = [0i32; 2];
        // SAFETY: two ints.
        unsafe {
            f.access(
                false,
                Pointer::Explicit(0),
                (back.as_mut_ptr() as *mut u8, 2, &int),
            )
        }
        .unwrap();
        assert_eq!(back, data);
        std::fs::remove_file(&name).unwrap();
    }

    #[test]
    fn modes_and_pointers_are_checked() {
        let read_only = Access {
            read: true,
            create: true,
            ..Access::default()
        };
        assert_eq!(read_only.check(1).unwrap_err().class, MPI_ERR_AMODE);
        assert_eq!(rdwr().check(2).unwrap_err().class, MPI_ERR_AMODE);
        let name = temp_file("modes");
        let sequential = Access {
            write: true,
            create: true,
            sequential: true,
            ..Access::default()
        };
        let mut f = open_as(&name, sequential);
        let byte = ty("MPI_BYTE");
        let data = [7u8; 3];
        // SAFETY: three bytes.
        let at = unsafe {
            f.access(
                true,
                Pointer::Explicit(0),
                (data.as_ptr() as *mut u8, 3, &byte),
            )
        };
        assert_eq!(at.unwrap_err().class, MPI_ERR_UNSUPPORTED_OPERATION);
        // SAFETY: three bytes.
        let read =
            unsafe { f.access(false, Pointer::Shared, (data.as_ptr() as *mut u8, 3, &byte)) };
        assert_eq!(read.unwrap_err().class, MPI_ERR_ACCESS);
        assert_eq!(
            f.seek(0, Whence::Set, true).unwrap_err().class,
            MPI_ERR_UNSUPPORTED_OPERATION
        );
        std::fs::remove_file(&name).unwrap();
    }
}
