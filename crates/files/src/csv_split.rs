//! Splits a stream of CSV into records as the csv crate's reader does, faster on the lines thaw
//! writes: a line that holds no quote and no carriage return is cut at its commas directly, and
//! every other record (the header, a quoted field, a line ending in `\r\n`) goes through
//! `csv_core`, the csv crate's own parser, so that quoting, doubled quotes, a newline inside
//! quotes and a byte-order mark mean here what they mean to every other reader of the file.
//!
//! The rules are the csv reader's defaults: blank lines are skipped, and a record whose number
//! of fields differs from the header's is an error. One more bound than the reader's: a record
//! of more bytes, or more fields, than the line limit it is given (csv_rows's) is an error too,
//! so that one opened quote cannot make a record of the whole file.

use anyhow::{anyhow, bail, Result};
use csv_core::ReadRecordResult;
use std::io::Read;

/// How much is read at a time.
const CHUNK: usize = 1 << 16;

/// One record: its fields' bytes and the line it starts on (a line's bytes as they lie, split at
/// its commas, or what csv_core made of a record).
#[derive(Debug, Clone, Default)]
pub struct Record {
    bytes: Vec<u8>,
    /// Where each field lies in `bytes` (a record is shorter than the line limit, 4 GiB at most).
    bounds: Vec<(u32, u32)>,
    line: u64,
}

impl Record {
    /// Field `i`, if the record has that many.
    pub fn get(&self, i: usize) -> Option<&[u8]> {
        self.bounds
            .get(i)
            .map(|&(from, to)| &self.bytes[from as usize..to as usize])
    }

    pub fn len(&self) -> usize {
        self.bounds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bounds.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &[u8]> {
        self.bounds
            .iter()
            .map(|&(from, to)| &self.bytes[from as usize..to as usize])
    }

    /// The line of its file it starts on (the first is 1).
    pub fn line(&self) -> u64 {
        self.line
    }

    fn clear(&mut self, line: u64) {
        self.bytes.clear();
        self.bounds.clear();
        self.line = line;
    }
}

/// Records are equal when their fields are, wherever they were read.
impl PartialEq for Record {
    fn eq(&self, other: &Record) -> bool {
        self.iter().eq(other.iter())
    }
}

impl std::ops::Index<usize> for Record {
    type Output = [u8];
    fn index(&self, i: usize) -> &[u8] {
        let (from, to) = self.bounds[i];
        &self.bytes[from as usize..to as usize]
    }
}

impl<T: AsRef<[u8]>> From<Vec<T>> for Record {
    /// A record of these fields, on line 0 (a record made, not read).
    fn from(fields: Vec<T>) -> Record {
        let mut r = Record::default();
        for f in fields {
            let from = r.bytes.len() as u32;
            r.bytes.extend_from_slice(f.as_ref());
            r.bounds.push((from, r.bytes.len() as u32));
        }
        r
    }
}

/// A record beyond the bounds, on `line`.
fn too_large(what: String, line: u64) -> anyhow::Error {
    anyhow!("a record {what}; no file thaw writes has one (it is damaged, or not a file of thaw's)")
        .context(format!("line {line}"))
}

/// The records of a stream, in order.
pub(crate) struct Splitter<R> {
    inner: R,
    buf: Vec<u8>,
    /// The unread bytes are `buf[start..end]`.
    start: usize,
    end: usize,
    eof: bool,
    /// The line the byte at `start` is on (the first is 1).
    line: u64,
    /// The header's number of fields, once it is read.
    fields: Option<usize>,
    /// The most bytes, and the most fields, a record may have.
    limit: u64,
    core: csv_core::Reader,
    out: Vec<u8>,
    ends: Vec<usize>,
}

impl<R: Read> Splitter<R> {
    /// The records of `inner`, each of at most `limit` bytes and `limit` fields (the reader
    /// below bounds its lines).
    pub(crate) fn new(inner: R, limit: u64) -> Splitter<R> {
        // a field's bounds are 32-bit
        debug_assert!(
            limit <= u64::from(u32::MAX),
            "a line limit of at most 4 GiB"
        );
        Splitter {
            inner,
            buf: vec![0; CHUNK],
            start: 0,
            end: 0,
            eof: false,
            line: 1,
            fields: None,
            limit,
            core: csv_core::Reader::new(),
            out: vec![0; 1024],
            ends: vec![0; 64],
        }
    }

    /// The next record into `record`, with its position; false at the end of the stream. An
    /// error names the line it is on where it has one (a record's), and is the reader's own
    /// otherwise (one that fails to read, or a line beyond the limit).
    pub(crate) fn next(&mut self, record: &mut Record) -> Result<bool> {
        loop {
            let unread = &self.buf[self.start..self.end];
            let Some(newline) = memchr::memchr(b'\n', unread) else {
                if self.eof {
                    return if self.start == self.end {
                        Ok(false)
                    } else {
                        self.through_core(record)
                    };
                }
                self.fill()?;
                continue;
            };
            let line = &unread[..newline];
            if self.fields.is_none() {
                return self.through_core(record);
            }
            if line.is_empty() {
                self.consume(1, 1);
                continue;
            }
            // one pass over the line: its commas, or a byte that needs the parser (commas lie
            // a few bytes apart, closer than a vector search pays for)
            record.clear(self.line);
            let mut from = 0;
            let mut plain = true;
            for (i, &b) in (0u32..).zip(line) {
                if b == b',' {
                    record.bounds.push((from, i));
                    from = i + 1;
                } else if b == b'"' || b == b'\r' {
                    plain = false;
                    break;
                }
            }
            if !plain {
                return self.through_core(record);
            }
            record.bounds.push((from, line.len() as u32));
            record.bytes.extend_from_slice(line);
            self.consume(newline + 1, 1);
            return self.counted(record);
        }
    }

    fn consume(&mut self, bytes: usize, lines: u64) {
        self.start += bytes;
        self.line += lines;
    }

    /// Reads more, keeping the unread bytes (moved to the front, or the buffer grown when
    /// they fill it); marks the end of the stream.
    fn fill(&mut self) -> Result<()> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        if self.end == self.buf.len() {
            // the reader below refuses a line beyond the limit, so this stays near it
            self.buf.resize(self.buf.len() * 2, 0);
        }
        let n = loop {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e.into()),
            }
        };
        self.end += n;
        self.eof = n == 0;
        Ok(())
    }

    /// One record through csv_core, from the unread bytes on.
    fn through_core(&mut self, record: &mut Record) -> Result<bool> {
        let at = self.line;
        let (mut nout, mut nend) = (0, 0);
        loop {
            let input = &self.buf[self.start..self.end];
            let (result, nin, o, e) =
                self.core
                    .read_record(input, &mut self.out[nout..], &mut self.ends[nend..]);
            let lines = memchr::memchr_iter(b'\n', &input[..nin]).count() as u64;
            self.consume(nin, lines);
            nout += o;
            nend += e;
            match result {
                ReadRecordResult::InputEmpty if self.eof => {}
                ReadRecordResult::InputEmpty => self.fill()?,
                // a record's bytes and its fields are held to the line's limit: empty fields
                // write no bytes, so both are bounded
                ReadRecordResult::OutputFull if self.out.len() as u64 >= self.limit => {
                    return Err(too_large(
                        format!("longer than {} MiB", self.limit >> 20),
                        at,
                    ))
                }
                ReadRecordResult::OutputEndsFull if self.ends.len() as u64 >= self.limit => {
                    return Err(too_large(format!("of more than {} fields", self.limit), at))
                }
                ReadRecordResult::OutputFull => self.out.resize(self.out.len() * 2, 0),
                ReadRecordResult::OutputEndsFull => self.ends.resize(self.ends.len() * 2, 0),
                ReadRecordResult::Record => {
                    record.clear(at);
                    record.bytes.extend_from_slice(&self.out[..nout]);
                    let mut from = 0;
                    for &to in &self.ends[..nend] {
                        record.bounds.push((from, to as u32));
                        from = to as u32;
                    }
                    return self.counted(record);
                }
                ReadRecordResult::End => return Ok(false),
            }
        }
    }

    /// The record counted; the first is the header, whose number of fields every other must
    /// have.
    fn counted(&mut self, record: &Record) -> Result<bool> {
        match self.fields {
            None => self.fields = Some(record.len()),
            Some(n) if n != record.len() => bail!(
                "line {}: found a record with {} fields, but the header has {n}",
                record.line,
                record.len()
            ),
            Some(_) => {}
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// csv_rows's line limit.
    const LIMIT: u64 = 1 << 20;

    /// Every record of `text` as the csv crate's reader (with its defaults) splits it, with
    /// the line each starts on.
    fn by_csv(text: &[u8]) -> Vec<(Vec<Vec<u8>>, u64)> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text);
        reader
            .byte_records()
            .map(|r| {
                let r = r.unwrap();
                let line = r.position().unwrap().line();
                (r.iter().map(<[u8]>::to_vec).collect(), line)
            })
            .collect()
    }

    /// The same by the splitter, read a few bytes at a time so that records straddle reads.
    fn by_splitter(text: &[u8], piece: usize) -> Result<Vec<(Vec<Vec<u8>>, u64)>> {
        struct Pieces<'a>(&'a [u8], usize);
        impl Read for Pieces<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = self.1.min(buf.len()).min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut s = Splitter::new(Pieces(text, piece), LIMIT);
        let mut record = Record::default();
        let mut all = Vec::new();
        while s.next(&mut record)? {
            all.push((record.iter().map(<[u8]>::to_vec).collect(), record.line()));
        }
        Ok(all)
    }

    #[test]
    fn splits_as_the_csv_reader_does() {
        let texts: [&[u8]; 8] = [
            b"a,b,c\n1,2,3\n4,,6\n",
            b"\xef\xbb\xbfa,b\n1,2\n",
            b"a,b\n\"x,y\",2\n\"say \"\"hi\"\"\",3\n",
            b"a,b\n\"two\nlines\",1\n3,4\n",
            b"a,b\r\n1,2\r\n3,4\r\n",
            b"a,b\n\n1,2\n\n\n3,4\n",
            b"a,b\n1,2\n3,4",
            b"",
        ];
        // the csv reader's lines lag behind a blank line or a `\r\n` (it counts a line when it
        // reads on): there the records are compared, and the lines below
        let fields =
            |all: Vec<(Vec<Vec<u8>>, u64)>| all.into_iter().map(|r| r.0).collect::<Vec<_>>();
        for text in texts {
            let lagging = text.windows(2).any(|w| w == b"\n\n" || w[0] == b'\r');
            for piece in [1, 2, 3, 7, 1 << 20] {
                let (mine, theirs) = (by_splitter(text, piece).unwrap(), by_csv(text));
                let said = format!(
                    "{:?} read {piece} bytes at a time",
                    String::from_utf8_lossy(text)
                );
                if lagging {
                    assert_eq!(fields(mine), fields(theirs), "{said}");
                } else {
                    assert_eq!(mine, theirs, "{said}");
                }
            }
        }
        let lines = |text: &[u8]| {
            by_splitter(text, 3)
                .unwrap()
                .into_iter()
                .map(|r| r.1)
                .collect::<Vec<_>>()
        };
        assert_eq!(lines(b"a,b\n\n1,2\n\n\n3,4\n"), [1, 3, 6]);
        assert_eq!(lines(b"a,b\r\n1,2\r\n3,4\r\n"), [1, 2, 3]);
    }

    #[test]
    fn a_record_unlike_the_header_is_an_error_naming_its_line() {
        let e = by_splitter(b"a,b,c\n1,2,3\n\n4,5\n", 3).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 4: found a record with 2 fields, but the header has 3"
        );
        let e = by_splitter(b"a,b\n\"1,2\",3,4\n", 3).unwrap_err();
        assert!(e.to_string().starts_with("line 2: "), "{e}");
    }

    #[test]
    fn one_opened_quote_cannot_make_a_record_of_the_whole_file() {
        let mut text = b"a,b\n\"".to_vec();
        text.extend(std::iter::repeat_n(b"x\n".as_slice(), LIMIT as usize).flatten());
        let e = by_splitter(&text, 1 << 16).unwrap_err();
        let said = format!("{e:#}");
        assert!(
            said.starts_with("line 2: a record longer than 1 MiB"),
            "{said}"
        );
        // nor one of empty fields, which write no bytes: each newline lies inside quotes,
        // closed after it, and the commas after the quote are fields
        let mut text = b"a,b\n\"".to_vec();
        let piece = [&b"\n\""[..], &[b','; 1000], b"\""].concat();
        text.extend(std::iter::repeat_n(piece.as_slice(), 2000).flatten());
        let e = by_splitter(&text, 1 << 16).unwrap_err();
        let said = format!("{e:#}");
        assert!(
            said.starts_with("line 2: a record of more than 1048576 fields"),
            "{said}"
        );
    }
}
