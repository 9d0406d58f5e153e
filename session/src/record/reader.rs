//! Reading a file of records one at a time (one JSON record per line, or one
//! record), with memory bounded by the largest record.

use super::*;

/// Splits a file's text into records: JSON Lines, or a single JSON object (see
/// [`RecordReader`], which reads a file of any size with bounded memory).
pub fn parse_records(text: &str) -> Vec<Result<Value, RecordError>> {
    RecordReader::new(text.as_bytes())
        .map(|r| r.map(|r| r.value))
        .collect()
}

/// The byte-order mark some editors write at the start of a UTF-8 file: skipped where a
/// record is read ([`parse_record_text`], [`RecordReader`]).
pub const BYTE_ORDER_MARK: char = '\u{feff}';

/// Reads a whole text file that holds one record or other short text (a record to
/// resume, a list of known divergences) with the limit of a record: a file longer than
/// [`MAX_RECORD_BYTES`] (4 MiB) is refused after that many bytes are read, so `/dev/zero`
/// fails at once. The error is a sentence naming the file: `cannot read FILE: ...`.
///
/// ```
/// use carcassonne_session::record::read_text_file;
/// let e = read_text_file("/dev/zero".as_ref()).unwrap_err();
/// assert!(e.to_string().contains("longer than 4194304 bytes"), "{e}");
/// ```
pub fn read_text_file(path: &std::path::Path) -> Result<String, RecordError> {
    use std::io::Read;
    let name = json::shown(&path.to_string_lossy()).into_owned();
    let fail = |why: String| err("", format!("cannot read {name}: {why}"));
    let file = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(MAX_RECORD_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(e.to_string()))?;
    if bytes.len() > MAX_RECORD_BYTES {
        return Err(fail(format!(
            "longer than {MAX_RECORD_BYTES} bytes (4 MiB), the largest file read whole"
        )));
    }
    String::from_utf8(bytes).map_err(|e| fail(format!("not UTF-8 text ({})", e.utf8_error())))
}

/// One record read by a [`RecordReader`]: the line it starts on (from 1) and its JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct RawRecord {
    /// The line of the file where the record starts.
    pub line: usize,
    /// The record's JSON value (read strictly, [`parse_record_text`]).
    pub value: Value,
}

/// Reads the records of a file one at a time: JSON Lines (one record per line, blank
/// lines skipped), or a single record written over several lines (when the first line
/// is not a whole JSON value). Memory is bounded by the largest record.
///
/// An error names the line (`line 3: invalid JSON: ...`). A bad line of JSON Lines is
/// reported and reading goes on with the next line. Reading stops after the error when
/// a line (or the one record) is longer than [`MAX_RECORD_BYTES`], when the file cannot
/// be read, and when the file's first record is not a game record at all (text that
/// does not start with `{`, invalid JSON, or another `format`), so that a file that is
/// not a record file fails at once: `/dev/zero` fails after its first byte. A UTF-8
/// byte-order mark at the start of the input is skipped.
///
/// ```
/// use carcassonne_session::record::RecordReader;
/// let text = "{\"format\":\"carcassonne-record\"}\n\n{oops\n";
/// let read: Vec<_> = RecordReader::new(text.as_bytes()).collect();
/// assert_eq!(read[0].as_ref().unwrap().line, 1);
/// assert_eq!(read[1].as_ref().unwrap_err().path, "line 3");
/// assert!(RecordReader::new(&b"\0\0\0"[..]).next().unwrap().is_err());
/// // A byte-order mark at the start is skipped, even when it arrives in pieces.
/// use std::io::Read;
/// let marked = (&b"\xef"[..]).chain(&b"\xbb\xbf{\"format\":\"carcassonne-record\"}"[..]);
/// assert!(RecordReader::new(marked).next().unwrap().is_ok());
/// assert!(RecordReader::new(&b"\xef\xbb{}"[..]).next().unwrap().is_err());
/// ```
pub struct RecordReader<R> {
    input: R,
    /// Lines consumed so far.
    line: usize,
    /// Records (and errors) yielded so far.
    yielded: usize,
    done: bool,
    buf: Vec<u8>,
}

/// How reading one line ended.
pub(super) enum LineEnd {
    /// A whole line (or the last one, without its newline) is in the buffer.
    Line,
    /// The end of the input, nothing read.
    Eof,
    /// The line is longer than the limit (what was read is dropped).
    TooLong,
    /// The first record of the file does not start with `{`.
    NotObject(u8),
}

impl<R: BufRead> RecordReader<R> {
    /// A reader of the records in `input`.
    pub fn new(input: R) -> RecordReader<R> {
        RecordReader {
            input,
            line: 0,
            yielded: 0,
            done: false,
            buf: Vec::new(),
        }
    }

    /// Skips a [`BYTE_ORDER_MARK`] at the start of the input. Bytes that begin the mark
    /// but do not finish it are consumed too: the input then starts with neither a mark
    /// nor `{`, which is reported as the mark's first byte.
    fn skip_byte_order_mark(&mut self) -> std::io::Result<Option<u8>> {
        let mark = "\u{feff}".as_bytes();
        let mut matched = 0;
        while matched < mark.len() {
            let avail = match self.input.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let Some(&b) = avail.first() else { break };
            if b != mark[matched] {
                break;
            }
            self.input.consume(1);
            matched += 1;
        }
        Ok((matched > 0 && matched < mark.len()).then_some(mark[0]))
    }

    /// Appends the next line to `buf` (without its newline), reading at most `limit`
    /// bytes in all into `buf`.
    fn read_line(&mut self, limit: usize, first: bool) -> std::io::Result<LineEnd> {
        let mut any = false;
        let mut check_start = first;
        loop {
            let avail = match self.input.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                if any {
                    self.line += 1;
                    return Ok(LineEnd::Line);
                }
                return Ok(LineEnd::Eof);
            }
            any = true;
            let (chunk, newline) = match avail.iter().position(|b| *b == b'\n') {
                Some(i) => (&avail[..i], true),
                None => (avail, false),
            };
            if check_start {
                if let Some(&b) = chunk.iter().find(|b| !b.is_ascii_whitespace()) {
                    if b != b'{' {
                        return Ok(LineEnd::NotObject(b));
                    }
                    check_start = false;
                }
            }
            if self.buf.len() + chunk.len() > limit {
                return Ok(LineEnd::TooLong);
            }
            self.buf.extend_from_slice(chunk);
            let used = chunk.len() + usize::from(newline);
            self.input.consume(used);
            if newline {
                self.line += 1;
                return Ok(LineEnd::Line);
            }
        }
    }

    /// The error that ends the reading.
    fn fatal(
        &mut self,
        line: usize,
        message: impl Into<String>,
    ) -> Option<Result<RawRecord, RecordError>> {
        self.done = true;
        self.buf = Vec::new();
        Some(Err(err(format!("line {line}"), message)))
    }
}

impl<R: BufRead> Iterator for RecordReader<R> {
    type Item = Result<RawRecord, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let first = self.yielded == 0;
        if first && self.line == 0 {
            match self.skip_byte_order_mark() {
                Ok(None) => {}
                Ok(Some(b)) => return self.fatal(1, not_object(b)),
                Err(e) => return self.fatal(1, format!("cannot read: {e}")),
            }
        }
        // The next non-blank line.
        let start = loop {
            self.buf.clear();
            let end = match self.read_line(MAX_RECORD_BYTES, first) {
                Ok(end) => end,
                Err(e) => return self.fatal(self.line + 1, format!("cannot read: {e}")),
            };
            let line = self.line + 1;
            match end {
                LineEnd::Eof => {
                    self.done = true;
                    return None;
                }
                LineEnd::TooLong => {
                    return self.fatal(
                        line,
                        format!(
                            "longer than {MAX_RECORD_BYTES} bytes, the largest record accepted"
                        ),
                    )
                }
                LineEnd::NotObject(b) => return self.fatal(line, not_object(b)),
                LineEnd::Line if self.buf.iter().all(u8::is_ascii_whitespace) => continue,
                LineEnd::Line => break self.line,
            }
        };
        self.yielded += 1;
        let mut parsed = parse_bytes(&self.buf);
        if first && parsed.is_err() && incomplete(&self.buf) {
            // The first line begins a value it does not finish: the file is one record
            // written over several lines.
            loop {
                self.buf.push(b'\n');
                let end = match self.read_line(MAX_RECORD_BYTES, false) {
                    Ok(end) => end,
                    Err(e) => return self.fatal(self.line + 1, format!("cannot read: {e}")),
                };
                match end {
                    LineEnd::Line | LineEnd::NotObject(_) => {}
                    LineEnd::Eof => break,
                    LineEnd::TooLong => {
                        return self.fatal(
                            start,
                            format!(
                            "a record longer than {MAX_RECORD_BYTES} bytes, the largest accepted"
                        ),
                        )
                    }
                }
            }
            parsed = parse_bytes(&self.buf);
            self.done = true;
        }
        let value = match parsed {
            Ok(v) => v,
            // Not JSON at all (a strictness error, with its path, is not fatal).
            Err(e) if first && e.path.is_empty() => {
                return self.fatal(start, format!("not a game record: {}", e.message));
            }
            Err(e) => {
                let at = if e.path.is_empty() {
                    format!("line {start}")
                } else {
                    format!("line {start}: {}", e.path)
                };
                return Some(Err(err(at, e.message)));
            }
        };
        if first && value.get("format").and_then(Value::as_str) != Some(FORMAT) {
            let found = value.get("format").map_or("no format".into(), describe);
            return self.fatal(
                start,
                format!("not a game record (format {found}, expected {FORMAT:?})"),
            );
        }
        Some(Ok(RawRecord { line: start, value }))
    }
}

/// The message for a file whose first record starts with the byte `b`, not `{`.
fn not_object(b: u8) -> String {
    format!(
        "not a game record: a record is a JSON object, which starts with '{{', not {}",
        echo(&String::from_utf8_lossy(&[b]))
    )
}

/// One record's bytes read strictly.
pub(super) fn parse_bytes(bytes: &[u8]) -> Result<Value, RecordError> {
    let text = std::str::from_utf8(bytes).map_err(|e| err("", format!("not UTF-8 text ({e})")))?;
    parse_record_text(text)
}

/// Whether `bytes` are the beginning of a JSON value that they do not finish.
pub(super) fn incomplete(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_err_and(|e| e.is_eof())
}
