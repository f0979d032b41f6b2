//! Where serialised pages go: stdout, or one file per input in a directory.

use crate::output::parquet::ParquetWriter;
use crate::output::resume::{self, Decision, Fingerprint, OutputLock, Record, Settings};
use crate::output::{Format, Formatter, Rendered};
use crate::pipeline::{FileStats, Sink};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// All inputs to stdout, one after another.
pub struct StdoutSink {
    out: BufWriter<std::io::Stdout>,
    formatter: Formatter,
    inputs: Vec<PathBuf>,
    begun: Vec<bool>,
}

impl StdoutSink {
    /// A sink writing the outputs of `inputs` to stdout, in input order.
    pub fn new(formatter: Formatter, inputs: &[PathBuf]) -> Self {
        let out = BufWriter::with_capacity(1 << 20, std::io::stdout());
        StdoutSink {
            out,
            formatter,
            inputs: inputs.to_vec(),
            begun: vec![false; inputs.len()],
        }
    }

    fn begin(&mut self, file: usize) -> std::io::Result<()> {
        if let Some(begun @ false) = self.begun.get_mut(file) {
            *begun = true;
            let name = self
                .inputs
                .get(file)
                .map(|p| output_name(&self.formatter, p))
                .unwrap_or_default();
            let mut header = Vec::new();
            self.formatter
                .file_header(&name, &mut header)
                .map_err(std::io::Error::other)?;
            self.out.write_all(&header)?;
        }
        Ok(())
    }
}

impl Sink for StdoutSink {
    fn sequential(&self) -> bool {
        true
    }
    fn write(&mut self, file: usize, page: Rendered) -> std::io::Result<()> {
        self.begin(file)?;
        match page {
            Rendered::Bytes(bytes) => self.out.write_all(&bytes),
            Rendered::Row(_) => Err(std::io::Error::other(
                "Parquet output goes to files: give -o DIR",
            )),
        }
    }
    fn finish(&mut self, file: usize, _stats: &FileStats) -> std::io::Result<Option<PathBuf>> {
        self.begin(file)?;
        self.out.flush()?;
        Ok(None)
    }
}

fn output_name(formatter: &Formatter, input: &Path) -> String {
    let path = formatter.output_path(Path::new(""), input);
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// An output being written under its temporary name.
enum OpenOutput {
    Bytes(BufWriter<File>),
    Parquet(Box<ParquetWriter<BufWriter<File>>>),
}

/// One output file per input in a directory, written under a temporary name
/// and renamed when the input is complete; then a record of how it was made
/// is written beside it ([`resume`]), so a later run keeps only outputs that
/// are complete and made with its own options.
pub struct DirSink {
    formatter: Formatter,
    settings: Settings,
    /// Each input as given, its identity and its fingerprint before reading.
    inputs: Vec<(PathBuf, String, Option<Fingerprint>)>,
    outputs: Vec<PathBuf>,
    open: Vec<Option<(OpenOutput, PathBuf)>>,
    /// Whether outputs are locked ([`DirSink::locking`]), and with `force`.
    locking: Option<bool>,
    /// The locks on the outputs being written, each held from
    /// [`Sink::begin`] until its record is written.
    locks: Vec<Option<OutputLock>>,
}

impl DirSink {
    /// A sink writing the outputs of `inputs` into `dir`, recording `settings`.
    pub fn new(formatter: Formatter, settings: Settings, dir: &Path, inputs: &[PathBuf]) -> Self {
        let outputs = inputs
            .iter()
            .map(|input| Self::output_for(&formatter, dir, input))
            .collect();
        DirSink {
            formatter,
            settings,
            // Taken before reading: an input changed while read is redone next time.
            inputs: inputs
                .iter()
                .map(|input| {
                    (
                        input.clone(),
                        resume::identity(input),
                        Fingerprint::of(input),
                    )
                })
                .collect(),
            outputs,
            open: inputs.iter().map(|_| None).collect(),
            locking: None,
            locks: inputs.iter().map(|_| None).collect(),
        }
    }

    /// The sink locking each output ([`resume::lock`]) from the moment its
    /// input's first result arrives until its record is written, so that
    /// only the outputs being written hold a lock (and a file descriptor).
    /// An output locked by another run, or finished by another run (or
    /// from another input) since this run checked it, refuses its input;
    /// with `force` only the lock counts.
    pub fn locking(mut self, force: bool) -> Self {
        self.locking = Some(force);
        self
    }

    /// The output path for `input` (`-` is named `stdin`).
    pub fn output_for(formatter: &Formatter, dir: &Path, input: &Path) -> PathBuf {
        let input = if input.as_os_str() == "-" {
            Path::new("stdin")
        } else {
            input
        };
        formatter.output_path(dir, input)
    }

    fn writer(&mut self, file: usize) -> std::io::Result<&mut OpenOutput> {
        let (Some(slot), Some(output)) = (self.open.get_mut(file), self.outputs.get(file)) else {
            return Err(std::io::Error::other(format!("no input number {file}")));
        };
        if slot.is_none() {
            let name = output
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let temp = output.with_file_name(format!(".{name}.partial"));
            let writer = BufWriter::with_capacity(
                1 << 20,
                File::create(&temp).map_err(|e| context(e, &temp))?,
            );
            let open = if self.formatter.format == Format::Parquet {
                OpenOutput::Parquet(Box::new(
                    ParquetWriter::with_columns(writer, self.formatter.columns)
                        .map_err(|e| context(std::io::Error::other(e), &temp))?,
                ))
            } else {
                let mut writer = writer;
                let mut header = Vec::new();
                self.formatter
                    .file_header(&name, &mut header)
                    .map_err(std::io::Error::other)?;
                writer.write_all(&header).map_err(|e| context(e, &temp))?;
                OpenOutput::Bytes(writer)
            };
            *slot = Some((open, temp));
        }
        match slot {
            Some((writer, _)) => Ok(writer),
            None => Err(std::io::Error::other("output not open")),
        }
    }
}

fn context(e: std::io::Error, path: &Path) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

impl Sink for DirSink {
    fn sequential(&self) -> bool {
        false
    }
    fn write(&mut self, file: usize, page: Rendered) -> std::io::Result<()> {
        match (self.writer(file)?, page) {
            (OpenOutput::Bytes(writer), Rendered::Bytes(bytes)) => writer.write_all(&bytes),
            (OpenOutput::Parquet(writer), Rendered::Row(row)) => {
                writer.push(*row).map_err(std::io::Error::other)
            }
            _ => Err(std::io::Error::other(
                "a page rendered for another format than the output's",
            )),
        }
    }
    fn begin(&mut self, file: usize) -> Result<(), String> {
        let Some(force) = self.locking else {
            return Ok(());
        };
        let (Some((input, _, _)), Some(output)) = (self.inputs.get(file), self.outputs.get(file))
        else {
            return Err(format!("no input number {file}"));
        };
        let lock = resume::lock(output).map_err(|e| format!("{}: {e}", input.display()))?;
        if !force {
            // Checked again under the lock: another run may have finished it.
            match resume::check(input, output, &self.settings) {
                Decision::Done(_) => {
                    return Err(format!(
                        "{}: another run finished its output {} while this one was starting; it is kept",
                        input.display(),
                        output.display()
                    ))
                }
                Decision::Conflict(other) => {
                    return Err(format!(
                        "{}: its output {} was written from another input, {other}, with the same name; rename one, or write to another directory",
                        input.display(),
                        output.display()
                    ))
                }
                Decision::Fresh | Decision::Redo(_) => {}
            }
        }
        if let Some(slot) = self.locks.get_mut(file) {
            *slot = Some(lock);
        }
        Ok(())
    }
    fn abandon(&mut self, file: usize) {
        // The partial file stays (an output without a record is redone).
        if let Some(open) = self.open.get_mut(file) {
            open.take();
        }
        if let Some(lock) = self.locks.get_mut(file) {
            lock.take();
        }
    }
    fn finish(&mut self, file: usize, stats: &FileStats) -> std::io::Result<Option<PathBuf>> {
        self.writer(file)?;
        let Some((open, temp)) = self.open.get_mut(file).and_then(Option::take) else {
            return Ok(None);
        };
        let output = self.outputs.get(file).cloned().unwrap_or_default();
        let writer = match open {
            OpenOutput::Bytes(writer) => writer,
            OpenOutput::Parquet(writer) => writer
                .finish()
                .map_err(|e| context(std::io::Error::other(e), &temp))?,
        };
        let file_handle = writer
            .into_inner()
            .map_err(|e| context(e.into_error(), &temp))?;
        file_handle.sync_all().map_err(|e| context(e, &temp))?;
        let output_bytes = file_handle.metadata().map_err(|e| context(e, &temp))?.len();
        // Old record first: an output without a record is redone, never kept.
        resume::remove_record(&output).map_err(|e| context(e, &output))?;
        std::fs::rename(&temp, &output).map_err(|e| context(e, &output))?;
        let (input, identity, input_fingerprint) =
            self.inputs.get(file).cloned().unwrap_or_default();
        let record = Record {
            settings: self.settings.clone(),
            input: input.display().to_string(),
            identity: Some(identity),
            input_fingerprint,
            output_bytes,
            stats: FileStats {
                output: Some(output.clone()),
                ..stats.clone()
            },
        };
        resume::write_record(&output, &record)
            .map_err(|e| context(e, &resume::record_path(&output)))?;
        // The output and its record are in place: another run may take it.
        if let Some(lock) = self.locks.get_mut(file) {
            lock.take();
        }
        Ok(Some(output))
    }
}
