//! How each strategy is drawn: a colour and a dash pattern, distinct for
//! any number of strategies (the first ten colours are Tableau 10's, then
//! hues a golden angle apart; the dash pattern changes with every
//! strategy too, so two lines of close colours still differ).

/// Tableau 10: distinct and readable on white.
const COLORS: [&str; 10] =
    ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];

/// Dash patterns (`stroke-dasharray`), cycled with a period prime to 10.
const DASHES: [&str; 3] = ["", "7 4", "2 3"];

/// A strategy's colour and dash pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Look {
    /// A CSS colour.
    pub color: String,
    /// A `stroke-dasharray` value, empty for a solid line.
    pub dash: &'static str,
}

/// The look of the strategy at `index` (0-based, in report order).
pub fn look(index: usize) -> Look {
    let color = match COLORS.get(index) {
        Some(c) => c.to_string(),
        None => format!("hsl({:.0},60%,42%)", (index as f64 * 137.508) % 360.0),
    };
    Look { color, dash: DASHES[index % DASHES.len()] }
}

/// Looks by strategy name: the first name seen gets look 0.
#[derive(Clone, Debug, Default)]
pub struct Palette {
    names: Vec<String>,
}

impl Palette {
    /// A palette for `names`, in order (duplicates count once).
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> Palette {
        let mut palette = Palette::default();
        for name in names {
            if !palette.names.iter().any(|n| n == name) {
                palette.names.push(name.to_string());
            }
        }
        palette
    }

    /// The look of `name` (an unknown name gets the next look).
    pub fn look(&self, name: &str) -> Look {
        look(self.names.iter().position(|n| n == name).unwrap_or(self.names.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looks_differ_for_many_strategies() {
        let looks: Vec<Look> = (0..40).map(look).collect();
        for (i, a) in looks.iter().enumerate() {
            for b in &looks[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(look(0), Look { color: "#4e79a7".into(), dash: "" });
        let p = Palette::new(["a", "b", "a"]);
        assert_eq!(p.look("b"), look(1));
        assert_eq!(p.look("zz"), look(2));
    }
}
