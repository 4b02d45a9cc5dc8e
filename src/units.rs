//! Quantities as a user reads them: bytes in a human unit.

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
