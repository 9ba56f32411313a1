//! "Did you mean" suggestions: the candidate closest to a misspelt name.

/// The candidate closest to `name` by [`suggestion_distance`]; `None` when nothing is
/// close.
pub fn closest_name<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let threshold = Threshold::of(name);
    candidates
        .into_iter()
        .filter_map(|candidate| Some((threshold.distance(name, candidate)?, candidate)))
        .min()
        .map(|(_, candidate)| candidate)
}

/// How far `candidate` is from `name`, when it is close enough to suggest: within edit
/// distance 2 (or a third of the name's length, if longer), or a prefix of `name`. The
/// one threshold of every "did you mean" pcl prints.
pub fn suggestion_distance(name: &str, candidate: &str) -> Option<usize> {
    Threshold::of(name).distance(name, candidate)
}

/// [`suggestion_distance`]'s threshold for one name, worked out once for the candidates.
struct Threshold {
    name_chars: usize,
    name_ascii: bool,
    limit: usize,
}

impl Threshold {
    fn of(name: &str) -> Threshold {
        let name_chars = name.chars().count();
        Threshold {
            name_chars,
            name_ascii: name.is_ascii(),
            limit: (name_chars / 3).max(2),
        }
    }

    fn distance(&self, name: &str, candidate: &str) -> Option<usize> {
        let candidate_chars = candidate.chars().count();
        if name.starts_with(candidate) {
            // Deleting the rest of the name: no edit distance is shorter.
            return Some(self.name_chars - candidate_chars);
        }
        // The distance is at least the difference in length: most candidates stop here,
        // so a name checked against many (every declaration of a program) stays cheap.
        if self.name_chars.abs_diff(candidate_chars) > self.limit {
            return None;
        }
        let distance = if self.name_ascii && candidate.is_ascii() && candidate.len() < SHORT {
            ascii_edit_distance(name.as_bytes(), candidate.as_bytes())
        } else {
            edit_distance(name, candidate)
        };
        (distance <= self.limit).then_some(distance)
    }
}

/// Candidates shorter than this (in bytes) are compared without allocating.
const SHORT: usize = 64;

/// [`edit_distance`] of two ASCII texts, `b` shorter than [`SHORT`]: the row on the stack.
fn ascii_edit_distance(a: &[u8], b: &[u8]) -> usize {
    levenshtein(a.iter().copied(), b, &mut [0; SHORT])
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    levenshtein(a.chars(), &b, &mut vec![0; b.len() + 1])
}

/// Levenshtein distance of `a` and `b`, one row at a time in `row` (at least one longer
/// than `b`).
fn levenshtein<T: PartialEq>(a: impl Iterator<Item = T>, b: &[T], row: &mut [usize]) -> usize {
    for (j, slot) in row.iter_mut().enumerate().take(b.len() + 1) {
        *slot = j;
    }
    for (i, ca) in a.enumerate() {
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

#[cfg(test)]
mod tests {
    use super::{ascii_edit_distance, closest_name, edit_distance, suggestion_distance};

    #[test]
    fn ascii_distances_are_the_character_ones() {
        let words = [
            "", "a", "ab", "abc", "kitten", "sitting", "bucket", "bukcet", "name0",
        ];
        for a in words {
            for b in words {
                let ascii = ascii_edit_distance(a.as_bytes(), b.as_bytes());
                assert_eq!(ascii, edit_distance(a, b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn suggestions_stay_within_the_threshold() {
        assert_eq!(suggestion_distance("bukcet", "bucket"), Some(2));
        assert_eq!(suggestion_distance("bucketName", "bucket"), Some(4));
        assert_eq!(suggestion_distance("x", "abcdef"), None);
        assert_eq!(suggestion_distance("nämé", "name"), Some(2));
        let names = ["region", "regions", "zone", "regoin"];
        assert_eq!(closest_name("regin", names), Some("region"));
        assert_eq!(closest_name("q", names), None);
    }
}
