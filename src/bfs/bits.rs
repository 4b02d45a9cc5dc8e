//! The one run-time dispatch to the bit instructions the default x86-64 target leaves out.
//!
//! `popcnt`, BMI1's `tzcnt` and `blsr` (a slot's place, the next slot) and BMI2's shifts by a
//! register that leave the flags alone: every x86-64 CPU since 2013 has them, but a binary built
//! for the default target may not assume them. Without `popcnt` a word's bits take about 15
//! instructions to count. The scans, the recounts and the database builder are defined through
//! `bit_instructions!`, which compiles their body twice and picks the copy at run time.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// Set: the copies compiled for the default target run even where the CPU has the bit
/// instructions (`use_fallback`).
static FALLBACK: AtomicBool = AtomicBool::new(false);

/// From now on, in this process, runs the copies compiled for the default target whatever the
/// CPU has (`yes`), or the fastest again: so that the copies a modern CPU never picks are run
/// by the tests (`tests/fallback.rs`). The results are the same either way.
pub fn use_fallback(yes: bool) {
    FALLBACK.store(yes, Relaxed);
}

/// Whether the copies for `popcnt`, BMI1 and BMI2 run: this CPU has them (a cached load after
/// the first call) and `use_fallback` did not turn them off.
#[cfg(target_arch = "x86_64")]
pub fn has_bit_instructions() -> bool {
    !FALLBACK.load(Relaxed)
        && std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
}

/// Defines a function whose body is compiled twice: for the default target, and for the bit
/// instructions, the copy run where this CPU has them. Generic parameters are given twice, as
/// declared and as passed: `fn name[const C: usize, W: Word][C, W](args) -> Out { body }`.
/// What the body calls `#[inline(always)]` is compiled into each copy (a closure would not be:
/// it stays a function of its own, compiled for the default target).
macro_rules! bit_instructions {
    (
        $(#[$attr:meta])*
        $vis:vis fn $name:ident[$($decl:tt)*][$($pass:tt)*](
            $($arg:ident: $ty:ty),* $(,)?
        ) -> $out:ty $body:block
    ) => {
        $(#[$attr])*
        $vis fn $name<$($decl)*>($($arg: $ty),*) -> $out {
            /// The body, compiled for `popcnt`, BMI1 and BMI2.
            ///
            /// # Safety
            /// The CPU must have them (`has_bit_instructions`).
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "popcnt,bmi1,bmi2")]
            unsafe fn with_bits<$($decl)*>($($arg: $ty),*) -> $out $body
            #[cfg(target_arch = "x86_64")]
            if $crate::bfs::bits::has_bit_instructions() {
                // SAFETY: this CPU has the instructions `with_bits` is compiled to use.
                return unsafe { with_bits::<$($pass)*>($($arg),*) };
            }
            $body
        }
    };
}
pub(crate) use bit_instructions;
