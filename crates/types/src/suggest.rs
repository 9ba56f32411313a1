//! "Did you mean" suggestions: the candidate closest to a misspelt name.

/// The candidate closest to `name`: within edit distance 2 (or a third of the name's
/// length, if longer), or a prefix of `name`; `None` when nothing is close.
pub fn closest_name<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(2);
    candidates
        .into_iter()
        .map(|candidate| (edit_distance(name, candidate), candidate))
        .filter(|(distance, candidate)| *distance <= limit || name.starts_with(candidate))
        .min()
        .map(|(_, candidate)| candidate)
}

/// Levenshtein distance over characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitute.min(previous + 1).min(row[j] + 1);
        }
    }
    row[b.len()]
}
