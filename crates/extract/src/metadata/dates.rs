//! Dates: what a page says as its publish or modification date, parsed
//! with `chrono` and written as ISO 8601. A string that does not parse as a
//! whole is no date: nothing is guessed from part of it.
//!
//! The page's own offset is kept (never converted to UTC), so the calendar
//! day written is the day the page states.

use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime};

/// The longest string read as a date: longer ones are prose, not a date.
const MAX_LEN: usize = 64;

/// Date-and-time layouts with an offset (`+0200` or `+02:00`), besides
/// RFC 3339 and RFC 2822.
const WITH_OFFSET: &[&str] = &[
    "%Y-%m-%dT%H:%M:%S%.f%z",
    "%Y-%m-%dT%H:%M%z",
    "%Y-%m-%d %H:%M:%S%.f%z",
    "%Y-%m-%d %H:%M:%S%.f %z",
    "%Y-%m-%dT%H:%M:%S%.f %z",
];

/// Date-and-time layouts without an offset: the time is the page's local
/// time, written without one.
const LOCAL: &[&str] = &[
    "%Y-%m-%dT%H:%M:%S%.f",
    "%Y-%m-%dT%H:%M",
    "%Y-%m-%d %H:%M:%S%.f",
    "%Y-%m-%d %H:%M",
    "%Y/%m/%d %H:%M:%S",
    "%Y/%m/%d %H:%M",
    "%Y-%m-%d, %I:%M %p",
    "%a %b %d, %Y %I:%M %P",
];

/// Date-only layouts, numeric and with English month names (as bylines
/// and `<time>` elements write them).
const DAY: &[&str] = &[
    "%Y-%m-%d",
    "%Y/%m/%d",
    "%Y.%m.%d",
    "%B %d, %Y",
    "%b %d, %Y",
    "%B %d %Y",
    "%b %d %Y",
    "%d %B %Y",
    "%d %b %Y",
    "%d %B, %Y",
    "%A, %B %d, %Y",
    "%a, %b %d, %Y",
    "%A, %d %B %Y",
    "%d %b, %Y",
    "%d.%m.%Y",
];

/// The years a page date may fall in: outside, the value is a placeholder
/// (`0001-01-01`) or a typo, not a date.
const YEARS: std::ops::RangeInclusive<i32> = 1900..=2100;

/// `value` as an ISO 8601 date (`2025-09-04`), local date-time
/// (`2025-09-04T10:30:00`) or date-time with offset
/// (`2025-09-04T10:30:00+02:00`), the precision it was given in (fractions
/// of seconds dropped); `None` when it is not a date as a whole, or an
/// implausible one (a year outside 1900–2100; the Unix epoch `1970-01-01`, which
/// stands for "no date" on many sites).
pub fn parse(value: &str) -> Option<String> {
    let value = value.trim();
    // Every layout has a numeric year or day: text without a digit (most
    // of what bylines show) is not tried against them.
    if value.len() > MAX_LEN || !value.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    // `Z` for UTC after a time without seconds, which RFC 3339 lacks.
    let utc;
    let value = match value.strip_suffix(['Z', 'z']) {
        Some(time) if value.contains('T') => {
            utc = format!("{time}+00:00");
            utc.as_str()
        }
        _ => value,
    };
    // `Dec. 19, 2025`: the abbreviation's dot.
    let undotted;
    let value = match value.find(". ") {
        Some(dot) if dot <= 4 && value[..dot].bytes().all(|b| b.is_ascii_alphabetic()) => {
            undotted = format!("{}{}", &value[..dot], &value[dot + 1..]);
            undotted.as_str()
        }
        _ => value,
    };
    // A date-time starts with a digit or a weekday; a day may start with a
    // month name. Anything else is not tried against every layout.
    let with_offset = DateTime::parse_from_rfc3339(value)
        .ok()
        .or_else(|| {
            WITH_OFFSET
                .iter()
                .find_map(|f| DateTime::parse_from_str(value, f).ok())
        })
        .or_else(|| DateTime::parse_from_rfc2822(value).ok());
    if let Some(time) = with_offset {
        return plausible(time.date_naive()).then(|| offset_iso(time));
    }
    if let Some(time) = LOCAL
        .iter()
        .find_map(|f| NaiveDateTime::parse_from_str(value, f).ok())
    {
        return plausible(time.date()).then(|| time.format("%Y-%m-%dT%H:%M:%S").to_string());
    }
    let day = DAY
        .iter()
        .find_map(|f| NaiveDate::parse_from_str(value, f).ok())
        .or_else(|| compact_day(value))?;
    plausible(day).then(|| day.format("%Y-%m-%d").to_string())
}

/// `20250904`: eight digits, read as a day only when they make one.
fn compact_day(value: &str) -> Option<NaiveDate> {
    (value.len() == 8 && value.bytes().all(|b| b.is_ascii_digit()))
        .then(|| NaiveDate::parse_from_str(value, "%Y%m%d").ok())
        .flatten()
}

fn plausible(day: NaiveDate) -> bool {
    YEARS.contains(&day.year()) && day != NaiveDate::from_ymd_opt(1970, 1, 1).unwrap_or_default()
}

fn offset_iso(time: DateTime<FixedOffset>) -> String {
    time.format("%Y-%m-%dT%H:%M:%S%:z").to_string()
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn iso_forms_keep_their_precision_and_offset() {
        assert_eq!(parse("2025-09-04").as_deref(), Some("2025-09-04"));
        assert_eq!(
            parse("2025-09-04T10:30:00Z").as_deref(),
            Some("2025-09-04T10:30:00+00:00")
        );
        assert_eq!(
            parse("2025-09-04T23:30:00.123-05:00").as_deref(),
            Some("2025-09-04T23:30:00-05:00")
        );
        assert_eq!(
            parse("2025-09-04T10:30:00+0200").as_deref(),
            Some("2025-09-04T10:30:00+02:00")
        );
        assert_eq!(
            parse("2025-09-04 10:30:00").as_deref(),
            Some("2025-09-04T10:30:00")
        );
        assert_eq!(
            parse("2025-09-04T10:30").as_deref(),
            Some("2025-09-04T10:30:00")
        );
    }

    #[test]
    fn written_dates_parse() {
        assert_eq!(parse("September 4, 2025").as_deref(), Some("2025-09-04"));
        assert_eq!(parse("Sep 4, 2025").as_deref(), Some("2025-09-04"));
        assert_eq!(parse("4 September 2025").as_deref(), Some("2025-09-04"));
        assert_eq!(parse("2025/09/04").as_deref(), Some("2025-09-04"));
        assert_eq!(parse("20250904").as_deref(), Some("2025-09-04"));
        assert_eq!(parse("Dec. 19, 2025").as_deref(), Some("2025-12-19"));
        assert_eq!(parse("15 Dec, 2025").as_deref(), Some("2025-12-15"));
        assert_eq!(parse("12.12.2025").as_deref(), Some("2025-12-12"));
        assert_eq!(
            parse("2025-12-15T15:33Z").as_deref(),
            Some("2025-12-15T15:33:00+00:00")
        );
        assert_eq!(
            parse("Thu, 04 Sep 2025 10:30:00 GMT").as_deref(),
            Some("2025-09-04T10:30:00+00:00")
        );
    }

    #[test]
    fn what_is_not_a_date_is_none() {
        for value in [
            "",
            "yesterday",
            "2025-13-40",
            "2025-09-04 and more words",
            "0001-01-01T00:00:00Z",
            "1970-01-01",
            "12345678",
            "Posted on September 4, 2025 by someone who writes a lot of words here",
        ] {
            assert_eq!(parse(value), None, "{value}");
        }
    }
}
