//! Where serialised pages go: stdout, or one file per input in a directory.

use super::Formatter;
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
    fn write(&mut self, file: usize, bytes: &[u8]) -> std::io::Result<()> {
        self.begin(file)?;
        self.out.write_all(bytes)
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

/// One output file per input in a directory, written under a temporary name
/// and renamed when the input is complete, so an existing output is always a
/// complete one and a killed run can resume by skipping those inputs.
pub struct DirSink {
    formatter: Formatter,
    /// Final path of each input's output.
    outputs: Vec<PathBuf>,
    open: Vec<Option<(BufWriter<File>, PathBuf)>>,
}

impl DirSink {
    pub fn new(formatter: Formatter, dir: &Path, inputs: &[PathBuf]) -> Self {
        let outputs = inputs
            .iter()
            .map(|input| Self::output_for(&formatter, dir, input))
            .collect();
        DirSink {
            formatter,
            outputs,
            open: inputs.iter().map(|_| None).collect(),
        }
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

    fn writer(&mut self, file: usize) -> std::io::Result<&mut BufWriter<File>> {
        let (Some(slot), Some(output)) = (self.open.get_mut(file), self.outputs.get(file)) else {
            return Err(std::io::Error::other(format!("no input number {file}")));
        };
        if slot.is_none() {
            let name = output
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let temp = output.with_file_name(format!(".{name}.partial"));
            let mut writer = BufWriter::with_capacity(
                1 << 20,
                File::create(&temp).map_err(|e| context(e, &temp))?,
            );
            let mut header = Vec::new();
            self.formatter
                .file_header(&name, &mut header)
                .map_err(std::io::Error::other)?;
            writer.write_all(&header).map_err(|e| context(e, &temp))?;
            *slot = Some((writer, temp));
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
    fn write(&mut self, file: usize, bytes: &[u8]) -> std::io::Result<()> {
        self.writer(file)?.write_all(bytes)
    }
    fn finish(&mut self, file: usize, _stats: &FileStats) -> std::io::Result<Option<PathBuf>> {
        self.writer(file)?;
        let Some((writer, temp)) = self.open.get_mut(file).and_then(Option::take) else {
            return Ok(None);
        };
        let output = self.outputs.get(file).cloned().unwrap_or_default();
        let file = writer
            .into_inner()
            .map_err(|e| context(e.into_error(), &temp))?;
        file.sync_all().map_err(|e| context(e, &temp))?;
        std::fs::rename(&temp, &output).map_err(|e| context(e, &output))?;
        Ok(Some(output))
    }
}
