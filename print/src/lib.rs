//! The pieces of Clojure's printer that both value printers of ptc share:
//! how `pr-str` writes a string (quotes and escapes) and how a double
//! prints. `ptc-lisp` prints its values with them, the plugin SDK prints
//! ABI values with them, so prompts and sessions escape the same way.
//!
//! ```
//! let mut s = String::new();
//! ptc_print::write_str_readably(&mut s, "a\"b\n\u{8}", usize::MAX).unwrap();
//! assert_eq!(s, r#""a\"b\n\b""#);
//! assert_eq!(ptc_print::float_text(1e20), "1.0E20");
//! ```

use std::fmt::{self, Write};

/// The escape `pr-str` writes for `c` inside a string, if any: `\"`, `\\`,
/// `\n`, `\t`, `\r`, `\b`, `\f`. Every other character, other control
/// characters included, is written as it is (as Clojure 1.11 does).
pub fn escape(c: char) -> Option<&'static str> {
    Some(match c {
        '"' => "\\\"",
        '\\' => "\\\\",
        '\n' => "\\n",
        '\t' => "\\t",
        '\r' => "\\r",
        '\u{8}' => "\\b",
        '\u{c}' => "\\f",
        _ => return None,
    })
}

/// Writes `s` in double quotes with Clojure's escapes, keeping at most
/// `max_chars` characters; a cut string ends with `...` before the closing
/// quote. Returns whether it was cut.
pub fn write_str_readably(out: &mut impl Write, s: &str, max_chars: usize) -> Result<bool, fmt::Error> {
    out.write_char('"')?;
    let mut cut = false;
    for (i, c) in s.chars().enumerate() {
        if i == max_chars {
            cut = true;
            break;
        }
        match escape(c) {
            Some(e) => out.write_str(e)?,
            None => out.write_char(c)?,
        }
    }
    if cut {
        out.write_str("...")?;
    }
    out.write_char('"')?;
    Ok(cut)
}

/// Writes a float the way Java's `Double.toString` (and so Clojure) does:
/// plain decimal for 1e-3 <= |x| < 1e7, else `d.dddE±n`; always a `.`;
/// `##NaN`, `##Inf`, `##-Inf`.
pub fn write_float(out: &mut impl Write, x: f64) -> fmt::Result {
    if x.is_nan() {
        return out.write_str("##NaN");
    }
    if x.is_infinite() {
        return out.write_str(if x > 0.0 { "##Inf" } else { "##-Inf" });
    }
    let a = x.abs();
    if a == 0.0 || (1e-3..1e7).contains(&a) {
        let s = format!("{x}");
        out.write_str(&s)?;
        if !s.contains('.') {
            out.write_str(".0")?;
        }
        return Ok(());
    }
    // Rust's `{:e}` gives the shortest round-trip digits: "1.5e-5", "1e20".
    let s = format!("{x:e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    out.write_str(mantissa)?;
    if !mantissa.contains('.') {
        out.write_str(".0")?;
    }
    write!(out, "E{exp}")
}

/// [`write_float`] into a new string.
pub fn float_text(x: f64) -> String {
    let mut s = String::new();
    // Writing to a String cannot fail.
    let _ = write_float(&mut s, x);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_like_java() {
        let cases = [
            (1.0, "1.0"),
            (0.1, "0.1"),
            (-2.5, "-2.5"),
            (1e20, "1.0E20"),
            (1.5e-5, "1.5E-5"),
            (1.5e-7, "1.5E-7"),
            (1234567.0, "1234567.0"),
            (12345678.0, "1.2345678E7"),
            (0.001, "0.001"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (f64::INFINITY, "##Inf"),
            (f64::NEG_INFINITY, "##-Inf"),
            (f64::NAN, "##NaN"),
        ];
        for (x, want) in cases {
            assert_eq!(float_text(x), want);
        }
    }

    #[test]
    fn cut_strings_end_inside_the_quotes() {
        let mut s = String::new();
        assert!(write_str_readably(&mut s, "日本語のテキスト🎉", 3).unwrap());
        assert_eq!(s, "\"日本語...\"");
    }
}
