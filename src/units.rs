//! Quantities as a user reads them: bytes in a human unit, durations in humantime's words.

/// Bytes in a human unit: `60.0 MB`, `10.9 GB`, `2.6 TB`, `1.2e30 B`.
pub fn human_bytes(bytes: f64) -> String {
    const UNITS: [&str; 6] = ["B", "kB", "MB", "GB", "TB", "PB"];
    let mut v = bytes;
    for unit in UNITS {
        if v < 1000.0 {
            return if unit == "B" {
                format!("{v:.0} B")
            } else {
                format!("{v:.1} {unit}")
            };
        }
        v /= 1000.0;
    }
    format!("{bytes:.1e} B")
}

/// Seconds as `3days 4h`, `5h 12m`, `7m 30s` or `12.5 s`: humantime's words, rounded to the
/// two largest units.
pub fn duration_words(seconds: f64) -> String {
    let s = seconds.round() as u64;
    let rounded = match s {
        0..=59 => return format!("{seconds:.1} s"),
        60..=3599 => s,
        3600..=86399 => s / 60 * 60,
        _ => s / 3600 * 3600,
    };
    humantime::format_duration(std::time::Duration::from_secs(rounded)).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_read_in_their_unit() {
        assert_eq!(human_bytes(999.0), "999 B");
        assert_eq!(human_bytes(59_875_200.0), "59.9 MB");
        assert_eq!(human_bytes(2.6e12), "2.6 TB");
        assert_eq!(human_bytes(1.2e30), "1.2e30 B");
    }

    #[test]
    fn durations_read_in_their_two_largest_units() {
        assert_eq!(duration_words(12.46), "12.5 s");
        // 7 min 30 s; 1 h 2 min 5 s (the seconds dropped); 1 day 1 h 1 min (the minutes dropped).
        assert_eq!(duration_words(450.0), "7m 30s");
        assert_eq!(duration_words(3725.0), "1h 2m");
        assert_eq!(duration_words(90_060.0), "1day 1h");
    }
}
