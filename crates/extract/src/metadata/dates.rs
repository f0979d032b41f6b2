//! Dates: what a page says as its publish or modification date, parsed
//! with `chrono` and written as ISO 8601. A string that does not parse as a
//! whole is no date: nothing is guessed from part of it.
//!
//! The page's own offset is kept (never converted to UTC), so the calendar
//! day written is the day the page states.

use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, Timelike};

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

/// The weekday names a shown date may start with (`Tue Aug 27, 2019`).
const WEEKDAYS: &[&str] = &[
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "mon",
    "tue",
    "tues",
    "wed",
    "thu",
    "thur",
    "thurs",
    "fri",
    "sat",
    "sun",
];

/// A date as a page shows it in its text: what [`parse`] reads, else the
/// day of a date written before a time or other words (`Dec 20, 2025 at
/// 3:00 am`, `Tue Aug 27, 2019 1:47 am`, `05 Nov 2025.`), with an ordinal
/// day (`September 1st, 2023`), or in numbers whose order is unambiguous
/// (`10/31/2024`, `23/12/2025`; never `03/04/2025`). The part up to the
/// year must parse as a whole: nothing is guessed from prose.
pub fn parse_shown(value: &str) -> Option<String> {
    let value = value.trim().trim_end_matches(['.', ',', ' ']);
    if value.is_empty() || value.len() > MAX_LEN {
        return None;
    }
    if let Some(date) = parse(value) {
        return Some(date);
    }
    // `2025-12-17UTC07:30`: an ISO day before anything but a digit.
    if let Some(day) = value
        .get(..10)
        .filter(|_| !value.as_bytes().get(10).is_some_and(u8::is_ascii_digit))
        .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
    {
        return plausible(day).then(|| day.format("%Y-%m-%d").to_string());
    }
    let mut rest = value;
    if let Some(word) = rest.split([' ', ',']).next() {
        if WEEKDAYS.iter().any(|w| w.eq_ignore_ascii_case(word)) {
            rest = rest[word.len()..].trim_start_matches([' ', ',']);
        }
    }
    if let Some(day) = east_asian_day(rest) {
        return plausible(day).then(|| day.format("%Y-%m-%d").to_string());
    }
    let cleaned = without_ordinals(rest);
    let head = cleaned[..year_end(&cleaned)?].trim_end_matches([',', ' ']);
    let day = DAY
        .iter()
        .find_map(|f| NaiveDate::parse_from_str(head, f).ok())
        .or_else(|| numeric_day(head))
        .or_else(|| named_month_day(head))?;
    plausible(day).then(|| day.format("%Y-%m-%d").to_string())
}

/// `2024年3月3日` (Chinese, Japanese) or `2024년 3월 3일` (Korean), with
/// anything after the day (a time): a year, a month and a day, each with
/// its unit.
fn east_asian_day(value: &str) -> Option<NaiveDate> {
    let number = |s: &str| -> Option<u32> {
        let s = s.trim();
        (!s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    for [year, month, day] in [["年", "月", "日"], ["년", "월", "일"]] {
        let Some((y, rest)) = value.split_once(year) else {
            continue;
        };
        let (m, rest) = rest.split_once(month)?;
        let (d, _) = rest.split_once(day)?;
        let y = number(y).filter(|_| y.trim().len() == 4)?;
        return NaiveDate::from_ymd_opt(i32::try_from(y).ok()?, number(m)?, number(d)?);
    }
    None
}

/// Month names other than English, in the genitive where a language
/// writes a date with it (`3 марта 2024`), lowercase, with their numbers:
/// German, French, Spanish, Italian, Portuguese, Dutch, Polish, Russian.
/// No name stands for two months.
const MONTH_NAMES: &[(&str, u32)] = &[
    ("januar", 1),
    ("janvier", 1),
    ("enero", 1),
    ("gennaio", 1),
    ("janeiro", 1),
    ("januari", 1),
    ("stycznia", 1),
    ("января", 1),
    ("februar", 2),
    ("février", 2),
    ("febrero", 2),
    ("febbraio", 2),
    ("fevereiro", 2),
    ("februari", 2),
    ("lutego", 2),
    ("февраля", 2),
    ("märz", 3),
    ("mars", 3),
    ("marzo", 3),
    ("março", 3),
    ("maart", 3),
    ("marca", 3),
    ("марта", 3),
    ("avril", 4),
    ("abril", 4),
    ("aprile", 4),
    ("kwietnia", 4),
    ("апреля", 4),
    ("mai", 5),
    ("mayo", 5),
    ("maggio", 5),
    ("maio", 5),
    ("mei", 5),
    ("maja", 5),
    ("мая", 5),
    ("juni", 6),
    ("juin", 6),
    ("junio", 6),
    ("giugno", 6),
    ("junho", 6),
    ("czerwca", 6),
    ("июня", 6),
    ("juli", 7),
    ("juillet", 7),
    ("julio", 7),
    ("luglio", 7),
    ("julho", 7),
    ("lipca", 7),
    ("июля", 7),
    ("août", 8),
    ("agosto", 8),
    ("augustus", 8),
    ("sierpnia", 8),
    ("августа", 8),
    ("septembre", 9),
    ("septiembre", 9),
    ("setiembre", 9),
    ("settembre", 9),
    ("setembro", 9),
    ("września", 9),
    ("сентября", 9),
    ("oktober", 10),
    ("octobre", 10),
    ("octubre", 10),
    ("ottobre", 10),
    ("outubro", 10),
    ("października", 10),
    ("октября", 10),
    ("dezember", 12),
    ("décembre", 12),
    ("diciembre", 12),
    ("dicembre", 12),
    ("dezembro", 12),
    ("grudnia", 12),
    ("декабря", 12),
    ("novembre", 11),
    ("noviembre", 11),
    ("novembro", 11),
    ("listopada", 11),
    ("ноября", 11),
];

/// `3. März 2024`, `3 mars 2024`, `3 de marzo de 2024`, `3 марта 2024 г`:
/// a day, a month named in one of [`MONTH_NAMES`]' languages and a
/// four-digit year, in that order (the English names are `chrono`'s).
fn named_month_day(value: &str) -> Option<NaiveDate> {
    let mut words = value
        .split([' ', '\u{a0}', ','])
        .filter(|w| !w.is_empty() && *w != "de" && *w != "del");
    let day: u32 = words.next()?.trim_end_matches('.').parse().ok()?;
    let name = words.next()?.trim_end_matches('.').to_lowercase();
    let year: i32 = words.next()?.parse().ok()?;
    if words.next().is_some() {
        return None;
    }
    let month = MONTH_NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, m)| m)
        .or_else(|| month_number(&name))?;
    NaiveDate::from_ymd_opt(year, month, day)
}

/// `value` with the ordinal suffix of a day dropped (`1st` → `1`).
fn without_ordinals(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let bytes = value.as_bytes();
    let mut i = 0;
    while i < value.len() {
        let suffix = bytes
            .get(i..i + 2)
            .is_some_and(|s| matches!(&s.to_ascii_lowercase()[..], b"st" | b"nd" | b"rd" | b"th"));
        let after_digit = i > 0 && bytes[i - 1].is_ascii_digit();
        let ends_word = !bytes.get(i + 2).is_some_and(u8::is_ascii_alphabetic);
        if suffix && after_digit && ends_word {
            i += 2;
            continue;
        }
        let c = value[i..].chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// Where the first four-digit number (a year) of `value` ends.
fn year_end(value: &str) -> Option<usize> {
    let bytes = value.as_bytes();
    let mut run = 0;
    for (i, b) in bytes.iter().enumerate() {
        if b.is_ascii_digit() {
            run += 1;
        } else {
            if run == 4 {
                return Some(i);
            }
            run = 0;
        }
    }
    (run == 4).then_some(bytes.len())
}

/// `10/31/2024`, `23/12/2025`, `11-29-2024`: a day and a month in
/// numbers, read only when one of them is over 12 (so the order is
/// certain).
fn numeric_day(value: &str) -> Option<NaiveDate> {
    let mut parts = value.split(['/', '-']);
    let a: u32 = parts.next()?.parse().ok()?;
    let b: u32 = parts.next()?.parse().ok()?;
    let year = parts.next()?;
    if parts.next().is_some() || year.len() != 4 {
        return None;
    }
    let year: i32 = year.parse().ok()?;
    let (month, day) = match (a > 12, b > 12) {
        (true, false) => (b, a),
        (false, true) => (a, b),
        _ => return None,
    };
    NaiveDate::from_ymd_opt(year, month, day)
}

/// The day a URL's path states: `/2025/12/18/`, `/2023/october/03/` or a
/// segment that starts
/// with `2025-12-17` (`/blog/2025-12-17-title`). Only a full day with a
/// four-digit year; the query and fragment are not read.
pub fn from_url(url: &str) -> Option<String> {
    let path = url.split("://").nth(1).unwrap_or(url);
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let segments: Vec<&str> = path.split('/').skip(1).collect();
    let day = segments
        .windows(3)
        .find_map(|w| {
            let numeric = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
            let month = if numeric(w[1], 2) {
                w[1].parse().ok()
            } else {
                month_number(w[1])
            };
            (numeric(w[0], 4) && numeric(w[2], 2))
                .then(|| NaiveDate::from_ymd_opt(w[0].parse().ok()?, month?, w[2].parse().ok()?))
                .flatten()
        })
        .or_else(|| {
            segments.iter().find_map(|s| {
                let day = s.get(..10)?;
                let next = s.as_bytes().get(10);
                (!next.is_some_and(u8::is_ascii_digit))
                    .then(|| NaiveDate::parse_from_str(day, "%Y-%m-%d").ok())
                    .flatten()
            })
        })?;
    plausible(day).then(|| day.format("%Y-%m-%d").to_string())
}

/// The number of an English month's name or its three-letter
/// abbreviation (`october`, `Oct`), case ignored.
fn month_number(name: &str) -> Option<u32> {
    const MONTHS: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    let i = MONTHS.iter().position(|m| {
        m.eq_ignore_ascii_case(name) || name.len() == 3 && m[..3].eq_ignore_ascii_case(name)
    })?;
    u32::try_from(i + 1).ok()
}

/// Whether `day` (`2025-12-18`) is another calendar day than the one of
/// the UTC time `utc` (`2025-12-19T02:41:41+00:00`) which that instant
/// has in some time zone (offsets run from −12:00 to +14:00): the day
/// before when the UTC time is before 12:00, the day after when it is
/// from 10:00.
pub fn local_day_of_utc(utc: &str, day: &str) -> bool {
    let Ok(time) = DateTime::parse_from_rfc3339(utc) else {
        return false;
    };
    let Ok(day) = NaiveDate::parse_from_str(day, "%Y-%m-%d") else {
        return false;
    };
    let (utc_day, hour) = (time.date_naive(), time.hour());
    time.offset().local_minus_utc() == 0
        && (day.succ_opt() == Some(utc_day) && hour < 12
            || utc_day.succ_opt() == Some(day) && hour >= 10)
}

/// Whether two ISO days (`2025-12-18`) are one day apart.
pub fn one_day_apart(a: &str, b: &str) -> bool {
    let day = |d: &str| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok();
    matches!((day(a), day(b)), (Some(a), Some(b)) if (a - b).num_days().abs() == 1)
}

/// Whether the day `day` (`2025-12-18`) a page shows may be the date
/// `stated` (as [`parse`] writes it) seen in another time zone, so that
/// the two are one date, not two: a day, or a time without an offset,
/// states no instant, so a day next to it may be the same date elsewhere;
/// a time with an offset is an instant, which has `day` in some time zone
/// only when `day` is at most 12 hours before it or 14 hours after
/// (`2025-12-18` is no shift of `2025-12-19T22:02:58+00:00`).
pub fn time_zone_shift(stated: &str, day: &str) -> bool {
    let Ok(day) = NaiveDate::parse_from_str(day, "%Y-%m-%d") else {
        return false;
    };
    match DateTime::parse_from_rfc3339(stated) {
        Ok(time) => {
            let utc = time.naive_utc();
            let earliest = (utc - chrono::Duration::hours(12)).date();
            let latest = (utc + chrono::Duration::hours(14)).date();
            day != time.date_naive() && (earliest..=latest).contains(&day)
        }
        Err(_) => stated
            .get(..10)
            .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
            .is_some_and(|d| (d - day).num_days().abs() == 1),
    }
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
    use super::{from_url, parse, parse_shown, time_zone_shift};

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

    #[test]
    fn shown_dates_parse_up_to_their_year() {
        for (shown, day) in [
            ("Dec 20, 2025 at 3:00 am", "2025-12-20"),
            ("Tue Aug 27, 2019 1:47 am", "2019-08-27T01:47:00"),
            ("Tue, Aug 27, 2019 at 1:47 am", "2019-08-27"),
            ("Friday, October 4th, 2024 at 3:43:10 PM", "2024-10-04"),
            ("September 1st, 2023", "2023-09-01"),
            ("05 Nov 2025.", "2025-11-05"),
            ("10/31/2024", "2024-10-31"),
            ("23/12/2025", "2025-12-23"),
            ("11-29-2024, 10:12 AM", "2024-11-29"),
            ("2025-12-17UTC07:30:00+00:00", "2025-12-17"),
            ("December 3, 2025. Updated: December 7, 2025", "2025-12-03"),
        ] {
            assert_eq!(parse_shown(shown).as_deref(), Some(day), "{shown}");
        }
        for shown in [
            "03/04/2025",
            "2025 was a good year",
            "December 2025",
            "Posted on the 15/12/2025",
            "Only 4 days left",
        ] {
            assert_eq!(parse_shown(shown), None, "{shown}");
        }
    }

    #[test]
    fn shown_dates_in_other_languages() {
        for (shown, day) in [
            // daniel_dev: argumenti.ru, ifeng.com, we-dwoje.pl.
            ("26\u{a0}ноября\u{a0}2011, 15:30", "2011-11-26"),
            ("2011年12月15日 23:25", "2011-12-15"),
            ("27 listopada 2011", "2011-11-27"),
            ("2024년 3월 3일", "2024-03-03"),
            ("3. März 2024", "2024-03-03"),
            ("3 de marzo de 2024", "2024-03-03"),
            ("12 août 2023 à 10h", "2023-08-12"),
            ("3. August 2024", "2024-08-03"),
        ] {
            assert_eq!(parse_shown(shown).as_deref(), Some(day), "{shown}");
        }
        for shown in [
            "2011年13月15日",
            "11年12月15日",
            "3 brumaire 2024",
            "31 février 2024",
            "März 2024",
        ] {
            assert_eq!(parse_shown(shown), None, "{shown}");
        }
    }

    #[test]
    fn time_zone_shifts() {
        // A day, or a local time without offset: a day next to it.
        assert!(time_zone_shift("2025-12-18", "2025-12-19"));
        assert!(time_zone_shift("2025-12-18T23:00:00", "2025-12-17"));
        assert!(!time_zone_shift("2025-12-18", "2025-12-20"));
        // An instant: the days it has from 12 hours before to 14 after.
        assert!(time_zone_shift("2023-09-28T00:49:54+00:00", "2023-09-27"));
        assert!(time_zone_shift("2025-07-04T20:04:00-04:00", "2025-07-05"));
        assert!(!time_zone_shift("2025-12-19T22:02:58+00:00", "2025-12-18"));
        assert!(!time_zone_shift("2025-12-19T22:02:58+00:00", "2025-12-19"));
    }

    #[test]
    fn days_in_url_paths() {
        for (url, day) in [
            ("https://a.example/2025/12/18/a-title/", Some("2025-12-18")),
            (
                "https://a.example/blog/2025-12-17-minisgl",
                Some("2025-12-17"),
            ),
            (
                "https://a.example/articles/2025-12-15+Rust",
                Some("2025-12-15"),
            ),
            (
                "https://www.wsetglobal.com/knowledge-centre/blog/2023/october/03/how-many-wine-types/",
                Some("2023-10-03"),
            ),
            ("https://a.example/2023/Oct/03/x", Some("2023-10-03")),
            ("https://a.example/2023/octobre/03/x", None),
            ("https://a.example/2025/12/a-title", None),
            ("https://a.example/story/25/12/19/236259/x", None),
            ("https://a.example/p?d=2025/12/18/x", None),
            ("https://a.example/2025/13/45/x", None),
        ] {
            assert_eq!(from_url(url).as_deref(), day, "{url}");
        }
    }
}
