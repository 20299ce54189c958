//! `format`: the common subset of Java's `String.format`
//! (`%s %d %f %e %x %o %c %b %% %n`, flags `-0+, `, width, precision).

use crate::error::ErrorKind;
use crate::eval::{fail, preview, Ctl};
use crate::print::{append_capped, Mode};
use crate::value::Value;

/// Largest width or precision accepted (`%99999999d` would allocate gigabytes).
const MAX_WIDTH: usize = 10_000;

struct Spec {
    left: bool,
    zero: bool,
    plus: bool,
    space: bool,
    group: bool,
    width: usize,
    precision: Option<usize>,
}

/// Formats like Java's `String.format`; `%s` text stops at `max_bytes`.
pub(crate) fn java_format(fmt: &str, args: &[Value], max_bytes: usize) -> Result<String, Ctl> {
    let mut out = String::new();
    let mut chars = fmt.chars().peekable();
    let mut next_arg = 0;
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut spec =
            Spec { left: false, zero: false, plus: false, space: false, group: false, width: 0, precision: None };
        while let Some(&f) = chars.peek() {
            match f {
                '-' => spec.left = true,
                '0' => spec.zero = true,
                '+' => spec.plus = true,
                ' ' => spec.space = true,
                ',' => spec.group = true,
                _ => break,
            }
            chars.next();
        }
        while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
            spec.width = spec.width * 10 + d as usize;
            chars.next();
        }
        if chars.peek() == Some(&'.') {
            chars.next();
            let mut p = 0;
            while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                p = p * 10 + d as usize;
                chars.next();
            }
            spec.precision = Some(p);
        }
        if spec.width > MAX_WIDTH || spec.precision.is_some_and(|p| p > MAX_WIDTH) {
            return Err(fail(ErrorKind::SizeLimit, format!("format: width and precision are limited to {MAX_WIDTH}")));
        }
        let Some(conv) = chars.next() else {
            return Err(fail(ErrorKind::Other, "format string ends in the middle of a % directive"));
        };
        if conv == '%' {
            out.push_str(&pad(&spec, "%".into()));
            continue;
        }
        if conv == 'n' {
            out.push('\n');
            continue;
        }
        let Some(arg) = args.get(next_arg) else {
            return Err(fail(ErrorKind::Other, format!("format: no argument for %{conv}")));
        };
        next_arg += 1;
        let body = directive(&spec, conv, arg, max_bytes)?;
        out.push_str(&pad(&spec, body));
    }
    Ok(out)
}

fn bad(conv: char, arg: &Value) -> Ctl {
    fail(ErrorKind::Type, format!("format: %{conv} cannot format {}", preview(arg)))
}

fn group_digits(digits: &str) -> String {
    let (int, frac) = digits.split_once('.').map_or((digits, None), |(a, b)| (a, Some(b)));
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    out
}

fn signed(spec: &Spec, negative: bool, magnitude: String) -> String {
    let magnitude = if spec.group { group_digits(&magnitude) } else { magnitude };
    let sign = if negative {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    };
    if spec.zero && !spec.left && sign.len() + magnitude.len() < spec.width {
        let zeros = "0".repeat(spec.width - sign.len() - magnitude.len());
        return format!("{sign}{zeros}{magnitude}");
    }
    format!("{sign}{magnitude}")
}

fn directive(spec: &Spec, conv: char, arg: &Value, max_bytes: usize) -> Result<String, Ctl> {
    Ok(match conv {
        's' | 'S' => {
            let mut s = String::new();
            match arg {
                Value::Nil => s.push_str("null"),
                other => {
                    if !append_capped(&mut s, other, Mode::Display, max_bytes) {
                        return Err(fail(ErrorKind::SizeLimit, format!("format: %s text exceeds {max_bytes} bytes")));
                    }
                }
            }
            let s = match spec.precision {
                Some(p) => s.chars().take(p).collect(),
                None => s,
            };
            if conv == 'S' {
                s.to_uppercase()
            } else {
                s
            }
        }
        'd' => match arg {
            Value::Int(i) => signed(spec, *i < 0, i.unsigned_abs().to_string()),
            _ => return Err(bad(conv, arg)),
        },
        'f' | 'e' | 'E' => {
            let x = match arg {
                Value::Int(i) => *i as f64,
                Value::Float(x) => *x,
                _ => return Err(bad(conv, arg)),
            };
            if !x.is_finite() {
                return Ok(if x.is_nan() {
                    "NaN".into()
                } else if x > 0.0 {
                    "Infinity".into()
                } else {
                    "-Infinity".into()
                });
            }
            let p = spec.precision.unwrap_or(6);
            let mag = if conv == 'f' { java_fixed(x.abs(), p) } else { java_exp(x.abs(), p, conv == 'E') };
            signed(spec, x.is_sign_negative() && x != 0.0, mag)
        }
        'x' | 'X' | 'o' => match arg {
            Value::Int(i) => {
                let s = match conv {
                    'x' => format!("{i:x}"),
                    'X' => format!("{i:X}"),
                    _ => format!("{i:o}"),
                };
                if spec.zero && s.len() < spec.width {
                    format!("{}{s}", "0".repeat(spec.width - s.len()))
                } else {
                    s
                }
            }
            _ => return Err(bad(conv, arg)),
        },
        'c' => match arg {
            Value::Str(s) if s.chars().count() == 1 => s.to_string(),
            Value::Int(i) => char::from_u32(*i as u32).map(String::from).ok_or_else(|| bad(conv, arg))?,
            _ => return Err(bad(conv, arg)),
        },
        'b' | 'B' => {
            let b = match arg {
                Value::Nil => false,
                Value::Bool(b) => *b,
                _ => true,
            };
            b.to_string()
        }
        other => return Err(fail(ErrorKind::Other, format!("format: unsupported directive %{other}"))),
    })
}

/// Java's `%.pf`: the shortest decimal digits of `x` (as `Double.toString`
/// has them) rounded half-up, so `2.675` gives `2.68` and `2.5` gives `3`.
fn java_fixed(x: f64, p: usize) -> String {
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i64 = exp.parse().unwrap_or(0);
    let mut digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).map(|b| b - b'0').collect();
    // The value is 0.d1d2d3... * 10^point; make `point` non-negative with leading zeros.
    let point = exp + 1;
    if point < 0 {
        let mut zeros = vec![0; point.unsigned_abs() as usize];
        zeros.append(&mut digits);
        digits = zeros;
    }
    let mut point = point.max(0) as usize;
    let keep = point + p;
    let round_up = digits.get(keep).is_some_and(|d| *d >= 5);
    digits.resize(keep, 0);
    if round_up {
        let mut i = keep;
        loop {
            if i == 0 {
                digits.insert(0, 1);
                point += 1;
                break;
            }
            i -= 1;
            if digits[i] == 9 {
                digits[i] = 0;
            } else {
                digits[i] += 1;
                break;
            }
        }
    }
    let text = |ds: &[u8]| ds.iter().map(|d| (b'0' + d) as char).collect::<String>();
    let int = if point == 0 { "0".to_string() } else { text(&digits[..point]) };
    if p == 0 {
        int
    } else {
        format!("{int}.{}", text(&digits[point..]))
    }
}

/// Java's `%e`: `1.234560e+01`.
fn java_exp(x: f64, p: usize, upper: bool) -> String {
    let s = format!("{:.*e}", p, x);
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let e = if upper { 'E' } else { 'e' };
    format!("{mantissa}{e}{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
}

fn pad(spec: &Spec, s: String) -> String {
    let n = s.chars().count();
    if n >= spec.width {
        return s;
    }
    let fill = " ".repeat(spec.width - n);
    if spec.left {
        s + &fill
    } else {
        fill + &s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(fmt: &str, args: &[Value]) -> String {
        match java_format(fmt, args, 1 << 20) {
            Ok(s) => s,
            Err(_) => "ERROR".into(),
        }
    }

    #[test]
    fn formats_like_java() {
        assert_eq!(
            f("%d|%5d|%-5d|%05d", &[Value::Int(1), Value::Int(2), Value::Int(3), Value::Int(-4)]),
            "1|    2|3    |-0004"
        );
        assert_eq!(f("%.2f %.0f %f", &[Value::Float(3.14659), Value::Float(2.5), Value::Int(1)]), "3.15 3 1.000000");
        assert_eq!(
            f(
                "%.2f|%.1f|%.3f|%.2f",
                &[Value::Float(2.675), Value::Float(0.05), Value::Float(1e-5), Value::Float(99.999)]
            ),
            "2.68|0.1|0.000|100.00"
        );
        assert_eq!(f("%,d %,.2f", &[Value::Int(1234567), Value::Float(1234.5)]), "1,234,567 1,234.50");
        assert_eq!(f("%s %s %S", &[Value::Nil, Value::keyword("k"), Value::str("up")]), "null :k UP");
        assert_eq!(f("%e", &[Value::Float(12345.678)]), "1.234568e+04");
        assert_eq!(
            f("%x %o %c %b %%%n", &[Value::Int(255), Value::Int(8), Value::str("z"), Value::Nil]),
            "ff 10 z false %\n"
        );
        assert_eq!(f("%d", &[]), "ERROR");
        assert_eq!(f("%d", &[Value::str("x")]), "ERROR");
        assert_eq!(f("%q", &[Value::Int(1)]), "ERROR");
    }
}
