//! HTTP payloads of WARC records (being built).
