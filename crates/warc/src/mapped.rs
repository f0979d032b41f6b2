//! A memory map that survives its file being cut short underneath it.
//!
//! When another program truncates a mapped file, touching a page past the
//! new end raises `SIGBUS`, whose default action kills the process. On
//! Linux each [`Map`] registers its address range in a fixed, lock-free
//! table; a `SIGBUS` handler (installed once, chained to the previous one
//! for any other address) maps anonymous zero pages over the rest of the
//! range that faulted and sets the map's flag. The reading goes on over
//! zeros until the reader looks at [`Map::faulted`] after the record and
//! reports the input as cut short. When the table is full [`Map::open`]
//! gives `None` and the file is read with `read()` instead. Elsewhere than
//! Linux the map is not guarded.

use std::fs::File;
use std::ops::Deref;

/// A read-only map of a whole file, guarded against truncation.
pub(super) struct Map {
    map: memmap2::Mmap,
    #[cfg(any(target_os = "linux", target_os = "android"))]
    slot: usize,
}

impl Map {
    /// Maps `file` (not empty), or `None` when the map could not be guarded
    /// (the caller then reads the file as a stream).
    pub(super) fn open(file: &File) -> std::io::Result<Option<Map>> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            // SAFETY: a read-only map; another program writing the file
            // changes the bytes seen (the documented risk of mmap), and
            // cutting it short is caught by the SIGBUS guard below.
            let map = unsafe { memmap2::Mmap::map(file) }?;
            let start = map.as_ptr() as usize;
            Ok(guard::register(start, start + map.len()).map(|slot| Map { map, slot }))
        }
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        {
            // SAFETY: a read-only map; a file truncated underneath it by
            // another program faults (no guard on this platform).
            Ok(Some(Map {
                map: unsafe { memmap2::Mmap::map(file) }?,
            }))
        }
    }

    /// True once a page of the map was found past the end of its file
    /// (the file was truncated while mapped): the bytes read since may be
    /// zeros, not the file's.
    pub(super) fn faulted(&self) -> bool {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            guard::faulted(self.slot)
        }
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        {
            false
        }
    }
}

impl Deref for Map {
    type Target = memmap2::Mmap;
    fn deref(&self) -> &memmap2::Mmap {
        &self.map
    }
}

impl Drop for Map {
    fn drop(&mut self) {
        // Before the unmap (which follows, as the field is dropped).
        #[cfg(any(target_os = "linux", target_os = "android"))]
        guard::unregister(self.slot);
    }
}

#[cfg(any(target_os = "linux", target_os = "android"))]
mod guard {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::OnceLock;

    /// Maps guarded at once; more are read with `read()`.
    const SLOTS: usize = 512;
    /// A slot being filled in: its range matches no address yet.
    const CLAIMED: usize = usize::MAX;

    struct Slot {
        /// Start address of the map; 0 when the slot is free.
        start: AtomicUsize,
        end: AtomicUsize,
        faulted: AtomicBool,
    }

    #[allow(clippy::declare_interior_mutable_const)] // the array's initialiser
    const FREE: Slot = Slot {
        start: AtomicUsize::new(0),
        end: AtomicUsize::new(0),
        faulted: AtomicBool::new(false),
    };
    static TABLE: [Slot; SLOTS] = [FREE; SLOTS];
    static PAGE: AtomicUsize = AtomicUsize::new(4096);

    /// The action that was in place for SIGBUS before ours.
    struct Previous(libc::sigaction);
    // SAFETY: plain data (flags, a mask, function addresses), written once
    // before the handler is installed and only read afterwards.
    unsafe impl Sync for Previous {}
    unsafe impl Send for Previous {}
    static PREVIOUS: OnceLock<Previous> = OnceLock::new();
    static INSTALLED: OnceLock<bool> = OnceLock::new();

    fn install() -> bool {
        *INSTALLED.get_or_init(|| {
            // SAFETY: sysconf and sigaction with valid pointers; the old
            // action is saved before ours replaces it.
            unsafe {
                let page = libc::sysconf(libc::_SC_PAGESIZE);
                if page > 0 {
                    PAGE.store(page as usize, Ordering::Relaxed);
                }
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(libc::SIGBUS, std::ptr::null(), &mut old) != 0 {
                    return false;
                }
                let _ = PREVIOUS.set(Previous(old));
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_sigbus as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut()) == 0
            }
        })
    }

    /// Claims a slot for the range `start..end`; `None` when none is free
    /// or the handler could not be installed.
    pub(super) fn register(start: usize, end: usize) -> Option<usize> {
        if !install() {
            return None;
        }
        for (i, slot) in TABLE.iter().enumerate() {
            if slot
                .start
                .compare_exchange(0, CLAIMED, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
            {
                slot.faulted.store(false, Ordering::Relaxed);
                slot.end.store(end, Ordering::Relaxed);
                slot.start.store(start, Ordering::Release);
                return Some(i);
            }
        }
        None
    }

    pub(super) fn unregister(slot: usize) {
        if let Some(slot) = TABLE.get(slot) {
            slot.start.store(0, Ordering::Release);
        }
    }

    pub(super) fn faulted(slot: usize) -> bool {
        TABLE
            .get(slot)
            .is_some_and(|s| s.faulted.load(Ordering::Acquire))
    }

    /// The SIGBUS handler: only atomics and `mmap`/`sigaction` system calls.
    extern "C" fn on_sigbus(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid siginfo for SA_SIGINFO handlers.
        let addr = unsafe { (*info).si_addr() } as usize;
        let page = PAGE.load(Ordering::Relaxed);
        for slot in &TABLE {
            let start = slot.start.load(Ordering::Acquire);
            if start == 0 || start == CLAIMED || addr < start {
                continue;
            }
            let end = slot.end.load(Ordering::Relaxed);
            if addr >= end {
                continue;
            }
            // Zero pages over the rest of the map: past the new end of the
            // file every page would fault.
            let from = addr & !(page - 1);
            let len = (end - from).div_ceil(page) * page;
            // SAFETY: the range lies inside a live read-only map this table
            // registered; MAP_FIXED replaces those pages only.
            let mapped = unsafe {
                libc::mmap(
                    from as *mut libc::c_void,
                    len,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if mapped != libc::MAP_FAILED {
                slot.faulted.store(true, Ordering::Release);
                return;
            }
            break;
        }
        chain(sig, info, ctx);
    }

    /// Hands a SIGBUS that is not ours to the previous action.
    fn chain(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
        let previous = PREVIOUS.get().map(|p| p.0);
        match previous {
            Some(old) if old.sa_sigaction != libc::SIG_DFL && old.sa_sigaction != libc::SIG_IGN => {
                // SAFETY: the previous handler, called as it was installed.
                unsafe {
                    if old.sa_flags & libc::SA_SIGINFO != 0 {
                        let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                            std::mem::transmute(old.sa_sigaction);
                        f(sig, info, ctx);
                    } else {
                        let f: extern "C" fn(libc::c_int) = std::mem::transmute(old.sa_sigaction);
                        f(sig);
                    }
                }
            }
            _ => {
                // The default action: returning re-runs the faulting access,
                // which now kills the process as without this handler.
                // SAFETY: sigaction with a zeroed (SIG_DFL) action.
                unsafe {
                    let mut action: libc::sigaction = std::mem::zeroed();
                    action.sa_sigaction = libc::SIG_DFL;
                    libc::sigemptyset(&mut action.sa_mask);
                    libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
                }
            }
        }
    }
}
