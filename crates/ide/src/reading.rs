//! Reading a source from disk or a stream, within the size pcl can hold: offsets into a
//! text are 32-bit, so a file past 4 GiB would have wrapped them, and an endless input
//! (`pcl check /dev/zero`, a pipe that never closes) was read until memory ran out. And a
//! Pulumi project or stack file decoded as Pulumi reads it.

use std::io::{self, Read};
use std::path::Path;

/// The most bytes a source may have (the largest 32-bit offset).
pub const LARGEST_SOURCE: u64 = u32::MAX as u64;

/// Everything `reader` holds, as long as that is at most [`LARGEST_SOURCE`] bytes;
/// `known_len` (a file's size from its metadata) fails a larger one before reading.
pub fn read_source(reader: impl Read, known_len: Option<u64>) -> io::Result<Vec<u8>> {
    read_at_most(reader, known_len, LARGEST_SOURCE)
}

/// The file at `path`, as [`read_source`] reads it.
pub fn read_source_file(path: &Path) -> io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let known_len = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    read_source(file, known_len)
}

fn read_at_most(reader: impl Read, known_len: Option<u64>, limit: u64) -> io::Result<Vec<u8>> {
    let too_large = || {
        io::Error::new(
            io::ErrorKind::FileTooLarge,
            "it is larger than 4 GiB, the most pcl reads (offsets into a file are 32-bit)",
        )
    };
    if known_len.is_some_and(|len| len > limit) {
        return Err(too_large());
    }
    let capacity = known_len.map_or(0, |len| usize::try_from(len).unwrap_or(0));
    let mut bytes = Vec::with_capacity(capacity);
    reader.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// The text of a Pulumi project or stack file's `bytes`, as Pulumi reads it: UTF-8, or
/// UTF-16 with a byte order mark (PowerShell 5 writes YAML so; the mark is kept, as the
/// YAML reader skips it). Other bytes are given back, for the caller to say why.
pub fn decode_project_file(bytes: Vec<u8>) -> Result<String, Vec<u8>> {
    let from: fn([u8; 2]) -> u16 = match bytes.as_slice() {
        [0xFF, 0xFE, ..] => u16::from_le_bytes,
        [0xFE, 0xFF, ..] => u16::from_be_bytes,
        _ => return String::from_utf8(bytes).map_err(|error| error.into_bytes()),
    };
    let units = bytes.chunks_exact(2).map(|pair| from([pair[0], pair[1]]));
    char::decode_utf16(units)
        .collect::<Result<String, _>>()
        .map_err(|_| bytes.clone())
}

#[cfg(test)]
mod tests {
    use super::read_at_most;

    #[test]
    fn inputs_past_the_limit_fail_without_being_read_to_their_end() {
        let endless = std::io::repeat(b'x');
        let error = read_at_most(endless, None, 10).expect_err("too large");
        assert_eq!(error.kind(), std::io::ErrorKind::FileTooLarge);
        assert_eq!(
            read_at_most(&b"0123456789"[..], None, 10).ok(),
            Some(b"0123456789".to_vec())
        );
        assert!(
            read_at_most(&b"x"[..], Some(11), 10).is_err(),
            "the size says so"
        );
        assert_eq!(read_at_most(&b""[..], Some(0), 10).ok(), Some(Vec::new()));
    }
}
