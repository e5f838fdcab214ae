//! "Did you mean …?": the nearest of the expected words to a misspelt one.

/// The edit distance between two words (insertions, deletions, substitutions and swaps of two
/// neighbouring letters each count 1: Damerau, 1964; the optimal string alignment form).
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[n][m]
}

/// The candidate nearest to `word` (candidates may be written in backticks), if it is near
/// enough to be a likely misspelling: at most a third of the word's letters differ (at least one).
pub fn nearest(word: &str, candidates: &[String]) -> Option<String> {
    if word.is_empty() {
        return None;
    }
    let len = word.chars().count();
    let limit = (len / 3).max(1);
    candidates
        .iter()
        .map(|c| c.trim_matches('`'))
        .filter(|c| !c.is_empty() && *c != word)
        // Words whose lengths differ by more than the limit are farther apart than it: skipped
        // unmeasured (a word of a million letters is measured against none, at once).
        .filter(|c| c.chars().count().abs_diff(len) <= limit)
        .map(|c| (distance(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_and_suggestions() {
        assert_eq!(distance("draw", "draw"), 0);
        assert_eq!(distance("darw", "draw"), 1);
        assert_eq!(distance("drw", "draw"), 1);
        assert_eq!(distance("kitten", "sitting"), 3);
        let c: Vec<String> = ["`draw`", "`stun`", "`plan`"].map(String::from).to_vec();
        assert_eq!(nearest("darw", &c).as_deref(), Some("draw"));
        assert_eq!(nearest("stnu", &c).as_deref(), Some("stun"));
        assert_eq!(nearest("teleport", &c), None);
        assert_eq!(nearest("", &c), None);
        let long = "d".repeat(1_000_000) + "raw";
        assert_eq!(nearest(&long, &c), None);
    }
}
