//! Why a record gave no page, as types with stable names: the names are the
//! keys of `--stats`, of the summaries and of the Python stats dicts, and
//! maps of reasons are ordered by them.

use crate::warc::ProblemKind;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;

/// Why a record that was read gave no page, by choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Skipped {
    /// A `request` record.
    Request,
    /// A `metadata` record.
    Metadata,
    /// A `revisit` record (the page is in an earlier capture).
    Revisit,
    /// A `warcinfo` record.
    Warcinfo,
    /// A `conversion` record.
    Conversion,
    /// A `continuation` record (a later segment of a segmented record).
    Continuation,
    /// A record of another or no `WARC-Type`.
    OtherType,
    /// A block, or an HTTP body once decoded, over the record cap.
    TooLarge,
    /// An HTTP status outside 200–299.
    HttpStatus,
    /// A payload that is not HTML (by its `Content-Type` and first bytes).
    NotHtml,
    /// A payload labelled HTML that holds binary data.
    Binary,
    /// A page a `--filter` rule set drops.
    Filter(Filtered),
}

/// The rule set and rule that dropped a page, by their datatrove names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Filtered {
    /// The rule set (`gopher_quality`, `c4`, …).
    pub set: &'static str,
    /// The first rule the page fails.
    pub rule: &'static str,
}

impl Skipped {
    /// The stable name: `not_html`, `too_large`, `filter:<rule set>:<rule>`, ….
    pub fn name(&self) -> Cow<'static, str> {
        Cow::Borrowed(match self {
            Skipped::Request => "request",
            Skipped::Metadata => "metadata",
            Skipped::Revisit => "revisit",
            Skipped::Warcinfo => "warcinfo",
            Skipped::Conversion => "conversion",
            Skipped::Continuation => "continuation",
            Skipped::OtherType => "other_type",
            Skipped::TooLarge => "too_large",
            Skipped::HttpStatus => "http_status",
            Skipped::NotHtml => "not_html",
            Skipped::Binary => "binary",
            Skipped::Filter(f) => return Cow::Owned(format!("filter:{}:{}", f.set, f.rule)),
        })
    }

    /// The reason named `name` ([`Skipped::name`]), as a resume record
    /// keeps it.
    pub fn from_name(name: &str) -> Option<Skipped> {
        if let Some(filter) = name.strip_prefix("filter:") {
            let (set, rule) = filter.split_once(':')?;
            return Some(Skipped::Filter(Filtered {
                set: intern(set),
                rule: intern(rule),
            }));
        }
        [
            Skipped::Request,
            Skipped::Metadata,
            Skipped::Revisit,
            Skipped::Warcinfo,
            Skipped::Conversion,
            Skipped::Continuation,
            Skipped::OtherType,
            Skipped::TooLarge,
            Skipped::HttpStatus,
            Skipped::NotHtml,
            Skipped::Binary,
        ]
        .into_iter()
        .find(|reason| reason.name() == name)
    }
}

/// `name` as a `&'static str`, each distinct name allocated once (rule set
/// and rule names read back from resume records: a handful).
fn intern(name: &str) -> &'static str {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let Ok(mut names) = NAMES.get_or_init(Default::default).lock() else {
        return "";
    };
    if let Some(known) = names.get(name) {
        return known;
    }
    let leaked: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.insert(leaked);
    leaked
}

/// Why a record could not give a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Failed {
    /// A damaged stretch of the input (one per problem the reader reports).
    Problem(ProblemKind),
    /// A `response` record whose block is not an HTTP response.
    BadHttp,
    /// The page could not be serialised.
    Write,
    /// The page's extraction went past the page timeout and was stopped.
    Timeout,
}

impl Failed {
    /// The stable name: `bad_http`, `write`, `timeout`, or the problem's
    /// ([`ProblemKind::reason`]: `corrupt_gzip`, `truncated`, …).
    pub fn name(&self) -> Cow<'static, str> {
        Cow::Borrowed(match self {
            Failed::Problem(kind) => kind.reason(),
            Failed::BadHttp => "bad_http",
            Failed::Write => "write",
            Failed::Timeout => "timeout",
        })
    }

    /// The reason named `name` ([`Failed::name`]), as a resume record keeps it.
    pub fn from_name(name: &str) -> Option<Failed> {
        [Failed::BadHttp, Failed::Write, Failed::Timeout]
            .into_iter()
            .chain(ProblemKind::ALL.into_iter().map(Failed::Problem))
            .find(|reason| reason.name() == name)
    }
}

macro_rules! named {
    ($($t:ty),*) => {$(
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.name())
            }
        }

        /// Ordered by name, so maps of reasons list them alphabetically.
        impl Ord for $t {
            fn cmp(&self, other: &Self) -> Ordering {
                self.name().cmp(&other.name())
            }
        }

        impl PartialOrd for $t {
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }

        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.name())
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let name = Cow::<'de, str>::deserialize(d)?;
                <$t>::from_name(&name).ok_or_else(|| {
                    serde::de::Error::custom(format!("unknown reason {name:?}"))
                })
            }
        }
    )*};
}
named!(Skipped, Failed);

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn names_are_stable_and_order_maps() {
        let filtered = Skipped::Filter(Filtered {
            set: "c4",
            rule: "c4_too_few_sentences",
        });
        let mut map = BTreeMap::new();
        for reason in [
            Skipped::TooLarge,
            filtered,
            Skipped::Binary,
            Skipped::NotHtml,
        ] {
            map.insert(reason, 1u64);
        }
        let json = serde_json::to_string(&map).unwrap_or_default();
        assert_eq!(
            json,
            r#"{"binary":1,"filter:c4:c4_too_few_sentences":1,"not_html":1,"too_large":1}"#
        );
        assert_eq!(
            Failed::Problem(ProblemKind::CorruptGzip).to_string(),
            "corrupt_gzip"
        );
        assert_eq!(Failed::BadHttp.to_string(), "bad_http");
        let back: BTreeMap<Skipped, u64> = serde_json::from_str(&json).unwrap_or_default();
        assert_eq!(back, map);
        // Every reason a resume record may hold is read back (a
        // `timeout` once made every record of an output with one unreadable).
        let failed = [Failed::BadHttp, Failed::Write, Failed::Timeout]
            .into_iter()
            .chain(ProblemKind::ALL.into_iter().map(Failed::Problem));
        for reason in failed {
            // A new variant must be listed above and in `from_name`.
            match reason {
                Failed::Problem(_) | Failed::BadHttp | Failed::Write | Failed::Timeout => {}
            }
            assert_eq!(Failed::from_name(&reason.name()), Some(reason));
        }
        assert_eq!(Skipped::from_name("nothing"), None);
    }
}
