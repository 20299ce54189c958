//! What ptc asks of the operating system, each in one place:
//!
//! - [`read_text`], [`read_bytes`], [`read_text_from`]: a whole file (or
//!   stdin) read into memory, refused past a bound *while reading*, since a
//!   device, a pipe or a growing log has no size to check first (ptc read
//!   `/dev/zero` named as a config, a program or a data file until the
//!   kernel stopped it). The bound is the caller's: each format's owner
//!   names its own constant (a session file, a data file, a replay file)
//!   or takes [`MAX_SOURCE_FILE_BYTES`] for a file a person writes.
//! - [`kill_process_group`]: a command tool, or a stdio MCP server, is
//!   started as the leader of its own process group, so that ending it
//!   ends what it started (`sh -c`, `npx`, `uv run` start the real work as
//!   a child).
//!
//! A read past its bound is an [`std::io::Error`] of kind
//! [`FileTooLarge`](std::io::ErrorKind::FileTooLarge) whose message names
//! the bound, so a caller matches it like any other I/O error.

#![warn(missing_docs)]

use std::io::{self, Read};
use std::path::Path;

/// Bytes of a file a person writes and ptc reads whole: a config
/// (`ptc.toml`, `strategies.toml`), a program (`ptc eval FILE`), a system
/// prompt (`ptc compare --system-prompt FILE`), a bench task. Far past any
/// of them; what is past it is a path to a log, a dataset or a device.
pub const MAX_SOURCE_FILE_BYTES: u64 = 16 << 20;

/// The text of file `path`, at most `bound` bytes: past it an error of
/// kind `FileTooLarge`, not UTF-8 one of kind `InvalidData`.
pub fn read_text(path: &Path, bound: u64) -> io::Result<String> {
    read_text_from(open_within(path, bound)?, bound)
}

/// The bytes of file `path`, at most `bound`: past it an error of kind
/// `FileTooLarge`.
pub fn read_bytes(path: &Path, bound: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open_within(path, bound)?.take(bound.saturating_add(1)).read_to_end(&mut bytes)?;
    within(bytes.len(), bound)?;
    Ok(bytes)
}

/// The text `reader` gives until it ends (stdin, a pipe), at most `bound`
/// bytes: past it an error of kind `FileTooLarge`.
pub fn read_text_from(reader: impl Read, bound: u64) -> io::Result<String> {
    let mut text = String::new();
    reader.take(bound.saturating_add(1)).read_to_string(&mut text)?;
    within(text.len(), bound)?;
    Ok(text)
}

/// `path` opened for reading; a plain file whose size is past `bound` is
/// refused before a byte is read (a device or a pipe says no size).
fn open_within(path: &Path, bound: u64) -> io::Result<std::fs::File> {
    let file = std::fs::File::open(path)?;
    match file.metadata() {
        Ok(meta) if meta.is_file() && meta.len() > bound => Err(too_large(bound)),
        _ => Ok(file),
    }
}

fn too_large(bound: u64) -> io::Error {
    io::Error::new(io::ErrorKind::FileTooLarge, format!("more than {}", size(bound)))
}

fn within(len: usize, bound: u64) -> io::Result<()> {
    if len as u64 > bound {
        return Err(too_large(bound));
    }
    Ok(())
}

/// `bound` as a person reads it: `16 MiB`, `1 GiB`, `100 bytes`.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// Sends SIGKILL to every process of the group `leader` leads (started
/// with `CommandExt::process_group(0)`). Does nothing off Unix, where a
/// child has no group of its own; the caller still kills the child.
///
/// While any process of the group lives, its id names no other group;
/// once all are gone the call fails with `ESRCH` (ignored), unless the id
/// was handed out again in between, which takes the pid space's
/// wrap-around and cannot happen while the leader is unreaped.
pub fn kill_process_group(leader: u32) {
    #[cfg(unix)]
    if let Ok(group) = i32::try_from(leader) {
        // SAFETY: kill(2) takes no pointers; a negative pid signals that
        // process group, the caller's own child's (above).
        unsafe { libc::kill(-group, libc::SIGKILL) };
    }
    #[cfg(not(unix))]
    let _ = leader;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_stops_past_its_bound_and_names_it() {
        let dir = std::env::temp_dir().join(format!("ptc-os-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("ten.txt");
        std::fs::write(&file, "0123456789").unwrap();
        assert_eq!(read_text(&file, 10).unwrap(), "0123456789");
        assert_eq!(read_bytes(&file, 10).unwrap(), b"0123456789");
        let past = read_text(&file, 9).unwrap_err();
        assert_eq!(past.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(past.to_string(), "more than 9 bytes");
        assert_eq!(read_bytes(&file, 9).unwrap_err().kind(), io::ErrorKind::FileTooLarge);
        // Refused by its size, before it is read: a sparse file of 1 TiB.
        let sparse = std::fs::File::create(dir.join("sparse")).unwrap();
        sparse.set_len(1 << 40).unwrap();
        assert_eq!(read_bytes(&dir.join("sparse"), 1 << 30).unwrap_err().to_string(), "more than 1 GiB");
        std::fs::write(&file, [0xff, 0xfe]).unwrap();
        assert_eq!(read_text(&file, 10).unwrap_err().kind(), io::ErrorKind::InvalidData);
        assert_eq!(read_text(&dir.join("none"), 10).unwrap_err().kind(), io::ErrorKind::NotFound);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_refused_at_the_bound_not_read_to_its_end() {
        let zero = Path::new("/dev/zero");
        let error = read_text(zero, MAX_SOURCE_FILE_BYTES).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(error.to_string(), "more than 16 MiB");
        assert_eq!(read_bytes(zero, 1 << 30).unwrap_err().to_string(), "more than 1 GiB");
        let stdin_like = read_text_from(&b"(+ 1 2)"[..], 7).unwrap();
        assert_eq!(stdin_like, "(+ 1 2)");
        assert_eq!(read_text_from(&b"(+ 1 2)"[..], 6).unwrap_err().kind(), io::ErrorKind::FileTooLarge);
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(size(256 << 20), "256 MiB");
        assert_eq!(size(1 << 30), "1 GiB");
        assert_eq!(size(64 << 10), "64 KiB");
        assert_eq!(size(1000), "1000 bytes");
    }

    #[cfg(unix)]
    #[test]
    fn killing_the_group_ends_the_leaders_children() {
        use std::os::unix::process::CommandExt;
        let mut leader = std::process::Command::new("/bin/sh")
            .args(["-c", "sleep 300 & echo $!; wait"])
            .stdout(std::process::Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap();
        let mut line = String::new();
        let mut out = std::io::BufReader::new(leader.stdout.take().unwrap());
        std::io::BufRead::read_line(&mut out, &mut line).unwrap();
        let child: u32 = line.trim().parse().unwrap();
        assert!(!ptc_integration_tests::process_ended(child), "the sleep runs before the kill");
        kill_process_group(leader.id());
        leader.wait().unwrap();
        ptc_integration_tests::wait_until("the leader's child ends with its group", || {
            ptc_integration_tests::process_ended(child)
        });
    }
}
