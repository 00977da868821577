//! The header a message through a ring travels as: [`HEADER_BYTES`] bytes on the program's
//! envelope (its communicator, destination and tag), so that MPI's matching and ordering
//! decide which receive takes the message, as for any other. It names the sender's ring and
//! the slot there ([`super::ring::Place`]).
//!
//! A receive that gets exactly [`HEADER_BYTES`] bytes looks at their start: a header begins
//! with [`MAGIC`], and the slot it names must hold a message of that number and size in a
//! ring of that nonce ([`super::ring::Peer::slot`]). The program's own messages of that size
//! are taken for what they are unless they begin with the same 16 bytes and name a live slot
//! of a peer's ring by its 64-bit nonce and number.

use super::ring::Place;

/// The size of a header on the wire. Receives with less room than this are never looked at;
/// the messages sent through rings are many times larger.
pub const HEADER_BYTES: usize = 1024;

/// The bytes of a header that carry something; the rest are zeros.
pub const HEADER_USED: usize = 56;

/// The first bytes of every header.
pub const MAGIC: [u8; 16] = *b"mpi-dtype\0ring\x01\x02";

/// What a header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The sending process (its ring's file is named by it).
    pub pid: u32,
    /// Where the message is in that ring.
    pub place: Place,
}

impl Header {
    /// The header's bytes (the first [`HEADER_USED`] of the message).
    pub fn encode(&self) -> [u8; HEADER_USED] {
        let mut out = [0u8; HEADER_USED];
        out[..16].copy_from_slice(&MAGIC);
        out[16..20].copy_from_slice(&self.pid.to_le_bytes());
        let words = [
            self.place.nonce,
            self.place.offset,
            self.place.number,
            self.place.bytes,
        ];
        for (i, word) in words.iter().enumerate() {
            out[24 + 8 * i..32 + 8 * i].copy_from_slice(&word.to_le_bytes());
        }
        out
    }

    /// The header at the start of a message, if it begins with [`MAGIC`].
    pub fn decode(bytes: &[u8; HEADER_USED]) -> Option<Header> {
        if bytes[..16] != MAGIC {
            return None;
        }
        let word = |i: usize| u64::from_le_bytes(bytes[24 + 8 * i..32 + 8 * i].try_into().unwrap());
        Some(Header {
            pid: u32::from_le_bytes(bytes[16..20].try_into().unwrap()),
            place: Place {
                nonce: word(0),
                offset: word(1),
                number: word(2),
                bytes: word(3),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{Header, Place, HEADER_USED};

    #[test]
    fn a_header_reads_back_and_other_bytes_are_none() {
        let header = Header {
            pid: 4242,
            place: Place {
                nonce: 0x0123_4567_89ab_cdef,
                offset: 4096,
                number: 7,
                bytes: 65_536,
            },
        };
        let bytes = header.encode();
        assert_eq!(Header::decode(&bytes), Some(header));
        let mut other = bytes;
        other[3] ^= 1;
        assert_eq!(Header::decode(&other), None);
        assert_eq!(Header::decode(&[0u8; HEADER_USED]), None);
    }
}
