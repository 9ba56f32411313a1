//! "Did you mean" suggestions: the candidate closest to a misspelt name.

/// The candidate closest to `name` by [`suggestion_distance`]; `None` when nothing is
/// close.
pub fn closest_name<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .filter_map(|candidate| Some((suggestion_distance(name, candidate)?, candidate)))
        .min()
        .map(|(_, candidate)| candidate)
}

/// How far `candidate` is from `name`, when it is close enough to suggest: within edit
/// distance 2 (or a third of the name's length, if longer), or a prefix of `name`. The
/// one threshold of every "did you mean" pcl prints.
pub fn suggestion_distance(name: &str, candidate: &str) -> Option<usize> {
    let limit = (name.chars().count() / 3).max(2);
    let distance = edit_distance(name, candidate);
    (distance <= limit || name.starts_with(candidate)).then_some(distance)
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
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
