//! Text and markdown tables for reports (`ptc compare`'s summary and
//! per-session tables): aligned columns, names left and figures right,
//! split to fit a width; and notes wrapped to it.

use std::fmt::Write;

/// Rows of cells as an aligned text table (`markdown = false`) or a
/// markdown table; error rows (`ERROR ...` in column 1) print unaligned.
pub fn table(headers: &[String], body: &[Vec<String>], markdown: bool) -> String {
    let mut out = String::new();
    if markdown {
        let _ = writeln!(out, "| {} |", headers.join(" | "));
        let align: Vec<&str> = (0..headers.len()).map(|i| if i == 0 { "---" } else { "---:" }).collect();
        let _ = writeln!(out, "| {} |", align.join(" | "));
        for row in body {
            let _ = writeln!(out, "| {} |", row.join(" | "));
        }
        return out;
    }
    let widths = column_widths(headers, body);
    for row in std::iter::once(headers.to_vec()).chain(body.iter().cloned()) {
        if is_error(&row) {
            let _ = writeln!(out, "{:<w$}  {}", row[0], row[1], w = widths[0]);
            continue;
        }
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            if i == 0 {
                let _ = write!(line, "{cell:<w$}", w = widths[0]);
            } else {
                let _ = write!(line, "  {cell:>w$}", w = widths[i]);
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

fn is_error(row: &[String]) -> bool {
    row.get(1).is_some_and(|c| c.starts_with("ERROR "))
}

fn column_widths(headers: &[String], body: &[Vec<String>]) -> Vec<usize> {
    (0..headers.len())
        .map(|i| {
            let cells = body.iter().filter(|r| !is_error(r) || i == 0).map(|r| r[i].chars().count());
            cells.chain([headers[i].chars().count()]).max().unwrap_or(0)
        })
        .collect()
}

/// [`table`] as text no wider than `width`: when the columns do not fit,
/// they are split into several tables, each repeating the first `keep`
/// columns (the row's name).
pub fn fitted_table(headers: &[String], body: &[Vec<String>], keep: usize, width: usize) -> String {
    let widths = column_widths(headers, body);
    let fixed: usize = widths[..keep].iter().map(|w| w + 2).sum();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut used = fixed;
    for (i, w) in widths.iter().enumerate().skip(keep) {
        if groups.is_empty() || used + w + 2 > width {
            groups.push(Vec::new());
            used = fixed;
        }
        groups.last_mut().expect("pushed above").push(i);
        used += w + 2;
    }
    let pick = |row: &[String], group: &[usize]| -> Vec<String> {
        row[..keep].iter().chain(group.iter().map(|&i| &row[i])).cloned().collect()
    };
    let tables: Vec<String> = groups
        .iter()
        .map(|g| {
            let body: Vec<Vec<String>> = body.iter().map(|r| pick(r, g)).collect();
            table(&pick(headers, g), &body, false)
        })
        .collect();
    tables.join("\n")
}

/// `text` broken at spaces into lines of at most `width` characters (a
/// word longer than that keeps its own line), the later ones indented.
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.trim().is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(line.trim_end());
            out.push('\n');
            line = "  ".to_string();
        } else if !line.trim().is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wide_table_splits_into_tables_that_fit() {
        let headers: Vec<String> =
            ["name", "a-long-column", "b-long-column", "c-long-column"].map(String::from).to_vec();
        let body = vec![vec!["row-1".to_string(), "1".into(), "2".into(), "3".into()]];
        let text = fitted_table(&headers, &body, 1, 40);
        assert!(text.lines().all(|l| l.chars().count() <= 40), "{text}");
        assert_eq!(text.matches("row-1").count(), 2, "the name column repeats: {text}");
        assert!(text.contains("c-long-column"));
        // Wide enough: one table.
        assert_eq!(fitted_table(&headers, &body, 1, 120), table(&headers, &body, false));
    }

    #[test]
    fn a_long_note_wraps_at_spaces() {
        let note = "same as full-history: a, b sent as many tokens as full-history on every turn";
        let wrapped = wrap(note, 30);
        assert!(wrapped.lines().all(|l| l.chars().count() <= 30), "{wrapped}");
        assert_eq!(wrapped.lines().count(), 3, "{wrapped}");
        assert!(wrapped.lines().skip(1).all(|l| l.starts_with("  ")), "{wrapped}");
        assert_eq!(wrapped.split_whitespace().collect::<Vec<_>>().join(" "), note);
        assert_eq!(wrap("short", 30), "short");
    }
}
