//! The per-page time budget: a backstop that stops one page's extraction
//! when it has used more CPU time than allowed, so that no page can stall a
//! worker whatever its markup.
//!
//! The budget is checked cooperatively, between the steps of an algorithm
//! and every so many elements inside its long loops (never per line, never
//! with an allocation): a step runs in time linear in the page, so a page
//! stops at most one step after its budget is spent. A check reads the wall
//! clock (a few nanoseconds); the thread's CPU clock is read once when the
//! page starts and again only when the wall clock says the budget may be
//! spent (CPU time never runs ahead of wall time), so a loaded machine does
//! not fail pages whose own work is within the budget.

use cpu_time::ThreadTime;
use std::time::{Duration, Instant};

/// An extraction stopped because it went past the page timeout
/// ([`Extractor::with_page_timeout`](crate::Extractor::with_page_timeout)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "the page's extraction used more than its page timeout of {limit:?} of CPU time and was stopped; \
     the page gives no text (raise the page timeout, or set it to 0 to turn it off)"
)]
pub struct PageTimeout {
    /// The page timeout that was exceeded.
    pub limit: Duration,
}

/// The time one page may still take: unlimited, or a limit counted from
/// when the page started.
#[derive(Debug)]
pub(crate) struct Budget {
    limit: Option<Limit>,
}

#[derive(Debug)]
struct Limit {
    limit: Duration,
    /// When the wall clock says the limit may be spent.
    deadline: Instant,
    /// The thread's CPU time when the page started, if the clock works.
    cpu_start: Option<Duration>,
}

impl Budget {
    /// No limit: every check passes.
    pub(crate) fn unlimited() -> Budget {
        Budget { limit: None }
    }

    /// A budget of `limit` from now.
    pub(crate) fn start(limit: Duration) -> Budget {
        Budget {
            limit: Some(Limit {
                limit,
                deadline: Instant::now() + limit,
                cpu_start: thread_cpu(),
            }),
        }
    }

    /// `Err` once the page has used more than its budget.
    #[inline]
    pub(crate) fn check(&mut self) -> Result<(), PageTimeout> {
        match &mut self.limit {
            None => Ok(()),
            Some(limit) => limit.check(),
        }
    }
}

impl Limit {
    fn check(&mut self) -> Result<(), PageTimeout> {
        let now = Instant::now();
        if now < self.deadline {
            return Ok(());
        }
        let over = Err(PageTimeout { limit: self.limit });
        // The wall clock ran out; the CPU clock may not have (a loaded
        // machine): wait for the rest of the limit in CPU time.
        let Some(used) = self
            .cpu_start
            .and_then(|start| Some(thread_cpu()?.saturating_sub(start)))
        else {
            return over;
        };
        match self.limit.checked_sub(used) {
            Some(left) if !left.is_zero() => {
                self.deadline = now + left;
                Ok(())
            }
            _ => over,
        }
    }
}

/// The CPU time this thread has used, if the clock can be read.
fn thread_cpu() -> Option<Duration> {
    ThreadTime::try_now().ok().map(|t| t.as_duration())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unlimited_budget_never_trips_and_a_spent_one_does() {
        let mut budget = Budget::unlimited();
        assert_eq!(budget.check(), Ok(()));
        let mut budget = Budget::start(Duration::ZERO);
        assert_eq!(
            budget.check(),
            Err(PageTimeout {
                limit: Duration::ZERO
            })
        );
        let mut budget = Budget::start(Duration::from_secs(3600));
        assert_eq!(budget.check(), Ok(()));
    }

    #[test]
    fn cpu_time_is_what_counts() {
        // A budget of 50 ms, mostly asleep: the wall clock runs out, the CPU
        // clock does not, so the check passes; then the thread works past it.
        let limit = Duration::from_millis(50);
        let mut budget = Budget::start(limit);
        std::thread::sleep(limit * 2);
        if thread_cpu().is_some() {
            assert_eq!(budget.check(), Ok(()));
        }
        let mut x = 0u64;
        let tripped = (0..u64::MAX).find(|i| {
            x = x.wrapping_mul(31).wrapping_add(*i);
            i % 1024 == 0 && budget.check().is_err()
        });
        assert!(tripped.is_some(), "{x}");
    }
}
