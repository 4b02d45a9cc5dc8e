//! How many threads a search may be given: at least 1, and at most 8 per core of this machine
//! (more only slow a memory-bound search down, and thousands of threads take minutes to start).
//! The command line's `--threads` and the Python package's `threads=` are held to it alike.

use crate::error::Error;

/// Threads per core past which a thread count is refused.
pub const PER_CORE: usize = 8;

/// The cores this machine schedules on (1 where it cannot tell).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |c| c.get())
}

/// The most threads a search may be given here.
pub fn most() -> usize {
    PER_CORE * cores()
}

/// `n` if it is a thread count a search may be given here; otherwise why not.
pub fn check(n: usize) -> Result<usize, Error> {
    let (most, cores) = (most(), cores());
    match n {
        0 => Err(Error::Argument("threads must be at least 1".into())),
        n if n > most => Err(Error::Argument(format!(
            "{n} threads is too many: at most {most} ({PER_CORE} per core; this machine has \
             {cores})"
        ))),
        n => Ok(n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_from_one_to_eight_a_core() {
        assert_eq!(check(1).unwrap(), 1);
        assert_eq!(check(most()).unwrap(), most());
        assert!(check(0).unwrap_err().to_string().contains("at least 1"));
        let e = check(most() + 1).unwrap_err().to_string();
        assert!(e.contains(&format!("at most {}", most())), "{e}");
    }
}
