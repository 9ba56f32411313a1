//! "Did you mean" suggestions: the candidate closest to a misspelt name, among a few
//! candidates compared one by one, or among many (every declaration of a program) through
//! an index of sorted names searched as a trie.

use smol_str::SmolStr;

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
/// one threshold of every "did you mean" pcl prints. A name longer than
/// [`LONGEST_COMPARED`] gets only its prefixes suggested.
pub fn suggestion_distance(name: &str, candidate: &str) -> Option<usize> {
    Threshold::of(name).distance(name, candidate)
}

/// Past how many characters a name is not compared by edit distance, which costs the
/// product of the two lengths (a misspelt name of 40,000 characters took 84 s and 20 GB
/// to check): such a name is suggested only the candidates it starts with.
const LONGEST_COMPARED: usize = 256;

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
        // Another case (`toJson` for `toJSON`) is one slip, however many letters it changes.
        if name != candidate && name.eq_ignore_ascii_case(candidate) {
            return Some(1);
        }
        let candidate_chars = candidate.chars().count();
        if name.starts_with(candidate) {
            // Deleting the rest of the name: no edit distance is shorter.
            return Some(self.name_chars - candidate_chars);
        }
        // The distance is at least the difference in length: most candidates stop here,
        // so a name checked against many (every declaration of a program) stays cheap.
        if self.name_chars > LONGEST_COMPARED
            || self.name_chars.abs_diff(candidate_chars) > self.limit
        {
            return None;
        }
        let distance = if self.name_ascii && candidate.is_ascii() && candidate.len() < SHORT {
            ascii_edit_distance(name.as_bytes(), candidate.as_bytes())
        } else {
            edit_distance(name, candidate)
        };
        let close = distance <= self.limit
            && short_name_agrees(self.name_chars, distance, name.chars().next(), candidate);
        close.then_some(distance)
    }
}

/// A short name (4 characters or fewer) two edits from a candidate is suggested that
/// candidate only when both start alike: any three-letter word is two edits from many
/// others (`len` from `can`, `str` from `try`), but a swap of two later letters
/// (`nmae` for `name`) is still a typo.
fn short_name_agrees(
    name_chars: usize,
    distance: usize,
    first: Option<char>,
    candidate: &str,
) -> bool {
    name_chars > 4 || distance < 2 || first == candidate.chars().next()
}

/// Many candidate names for [`closest_name`]'s answer without comparing a name with each:
/// the names are grouped by length and sorted, and each group whose length is within the
/// threshold of the name's is walked as a trie: one row of the edit distance per character
/// of a prefix, shared by the names that start with it, and every name under a prefix
/// skipped at once when the prefix's row (with what the difference in length still costs)
/// is past the threshold or the best distance so far. A program's scope of 16,000 names
/// against as many unresolved ones took 11 to 64 s compared one by one.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct CandidateNames {
    /// Sorted names of each length in characters, by length.
    by_length: Box<[(usize, Box<[SmolStr]>)]>,
    /// The names with a `:` (`app:seed`), by what follows their last `:`, sorted.
    after_colon: Box<[(SmolStr, SmolStr)]>,
    /// The names with a capital letter, by their lowercase, sorted: a name in another
    /// case is one slip however many letters differ (`MYBUCKET` for `myBucket`).
    by_lowercase: Box<[(SmolStr, SmolStr)]>,
}

impl CandidateNames {
    pub fn new(names: impl IntoIterator<Item = SmolStr>) -> CandidateNames {
        let mut names: Vec<(usize, SmolStr)> = (names.into_iter())
            .map(|name| (name.chars().count(), name))
            .collect();
        names.sort_unstable();
        names.dedup();
        let mut after_colon: Vec<(SmolStr, SmolStr)> = (names.iter())
            .filter_map(|(_, name)| {
                let (_, after) = name.rsplit_once(':')?;
                Some((SmolStr::new(after), name.clone()))
            })
            .collect();
        after_colon.sort_unstable();
        let mut by_lowercase: Vec<(SmolStr, SmolStr)> = (names.iter())
            .filter(|(_, name)| name.bytes().any(|b| b.is_ascii_uppercase()))
            .map(|(_, name)| (SmolStr::new(name.to_ascii_lowercase()), name.clone()))
            .collect();
        by_lowercase.sort_unstable();
        let mut by_length: Vec<(usize, Vec<SmolStr>)> = Vec::new();
        for (length, name) in names {
            match by_length.last_mut() {
                Some((last, group)) if *last == length => group.push(name),
                _ => by_length.push((length, vec![name])),
            }
        }
        let by_length = by_length.into_iter();
        CandidateNames {
            by_length: by_length.map(|(n, group)| (n, group.into())).collect(),
            after_colon: after_colon.into(),
            by_lowercase: by_lowercase.into(),
        }
    }

    /// The first (in order) of the names that are `name` in another case (but `except`).
    fn in_another_case(&self, name: &str, except: Option<&str>) -> Option<&str> {
        let lowercase = name.to_ascii_lowercase();
        let differs = |candidate: &&str| *candidate != name && except != Some(*candidate);
        let at =
            (self.by_lowercase).partition_point(|(lower, _)| lower.as_str() < lowercase.as_str());
        let capitalised = (self.by_lowercase[at..].iter())
            .take_while(|(lower, _)| *lower == lowercase)
            .map(|(_, candidate)| candidate.as_str());
        let group = self.group(lowercase.chars().count());
        let lower = (group.binary_search_by(|c| c.as_str().cmp(&lowercase)).ok())
            .map(|at| group[at].as_str());
        capitalised.chain(lower).filter(differs).min()
    }

    /// The name `namespace:name` among these, for `name` (the first in order, if several).
    pub fn with_namespace(&self, name: &str) -> Option<&str> {
        let at = self
            .after_colon
            .partition_point(|(after, _)| after.as_str() < name);
        let (after, full) = self.after_colon.get(at)?;
        (after == name).then_some(full.as_str())
    }

    fn group(&self, length: usize) -> &[SmolStr] {
        match self.by_length.binary_search_by_key(&length, |(n, _)| *n) {
            Ok(at) => &self.by_length[at].1,
            Err(_) => &[],
        }
    }

    /// Whether `name` is one of these names.
    pub fn contains(&self, name: &str) -> bool {
        (self.group(name.chars().count()))
            .binary_search_by(|candidate| candidate.as_str().cmp(name))
            .is_ok()
    }

    /// [`closest_name`] of `name` among these names (but `except`, when given).
    pub fn closest(&self, name: &str, except: Option<&str>) -> Option<&str> {
        // A name in another case is one slip (`closest_name`'s distance).
        let another_case = self
            .in_another_case(name, except)
            .map(|candidate| (1, candidate));
        let mut best = match (self.closest_prefix(name, except), another_case) {
            (Some(prefix), Some(case)) => Some(prefix.min(case)),
            (prefix, case) => prefix.or(case),
        };
        let query: Vec<char> = name.chars().collect();
        if query.len() > LONGEST_COMPARED {
            return best.map(|(_, candidate)| candidate);
        }
        let limit = Threshold::of(name).limit;
        // Nearest lengths first: a length further than the best distance cannot beat it.
        let lengths = (0..=limit).flat_map(|apart| {
            let shorter = query.len().checked_sub(apart);
            let longer = (apart > 0).then_some(query.len() + apart);
            shorter.into_iter().chain(longer)
        });
        for length in lengths {
            if best.is_some_and(|(distance, _)| length.abs_diff(query.len()) > distance) {
                break;
            }
            let mut search = TrieSearch {
                query: &query,
                length,
                limit,
                except,
                best,
            };
            search.walk(self.group(length));
            best = search.best;
        }
        best.map(|(_, candidate)| candidate)
    }

    /// The candidates `name` starts with (suggested whatever their distance): looked up at
    /// each of its character boundaries. The longest is the closest.
    fn closest_prefix(&self, name: &str, except: Option<&str>) -> Option<(usize, &str)> {
        let name_chars = name.chars().count();
        let ends = name.char_indices().map(|(at, _)| at).chain([name.len()]);
        let mut closest = None;
        for (prefix_chars, end) in ends.enumerate() {
            let prefix = &name[..end];
            let group = self.group(prefix_chars);
            if let Ok(at) = group.binary_search_by(|c| c.as_str().cmp(prefix))
                && except != Some(prefix)
            {
                closest = Some((name_chars - prefix_chars, group[at].as_str()));
            }
        }
        closest
    }
}

/// One walk of a group of sorted names of one length as a trie, keeping the closest name
/// within the threshold.
struct TrieSearch<'q, 'n> {
    query: &'q [char],
    /// The length of every name of the group.
    length: usize,
    limit: usize,
    except: Option<&'q str>,
    best: Option<(usize, &'n str)>,
}

impl<'n> TrieSearch<'_, 'n> {
    fn walk(&mut self, group: &'n [SmolStr]) {
        let width = self.query.len() + 1;
        // `rows[k * width..][..width]`: the distances of the current name's first `k`
        // characters (`path`, each with its end in bytes) to each prefix of the query.
        let mut rows: Vec<usize> = (0..width).collect();
        let mut path: Vec<(char, usize)> = Vec::new();
        let mut next = 0;
        while let Some(candidate) = group.get(next) {
            let candidate = candidate.as_str();
            let shared = (candidate.chars().zip(&path))
                .take_while(|(c, (p, _))| c == p)
                .count();
            path.truncate(shared);
            rows.truncate((shared + 1) * width);
            let start = path.last().map_or(0, |&(_, end)| end);
            let mut hopeless_under = None;
            for (at, c) in candidate[start..].char_indices() {
                let end = start + at + c.len_utf8();
                path.push((c, end));
                if self.push_row(&mut rows, c, path.len(), &candidate[..end]) {
                    hopeless_under = Some(end);
                    break;
                }
            }
            next += match hopeless_under {
                Some(end) => {
                    let prefix = &candidate[..end];
                    group[next..].partition_point(|c| c.starts_with(prefix))
                }
                None => {
                    let distance = rows[rows.len() - 1];
                    let found = (distance, candidate);
                    if distance <= self.limit
                        && short_name_agrees(
                            self.query.len(),
                            distance,
                            self.query.first().copied(),
                            candidate,
                        )
                        && self.except != Some(candidate)
                        && self.best.is_none_or(|best| found < best)
                    {
                        self.best = Some(found);
                    }
                    1
                }
            };
        }
    }

    /// Appends the row of the `depth`th character `c` of a name, which ends `prefix`
    /// (Levenshtein against the query), to `rows`; whether no name of the group under
    /// this prefix can be suggested: each one's distance is at least a cell of the row
    /// plus the difference between what is left of the name and of the query past it.
    fn push_row(&self, rows: &mut Vec<usize>, c: char, depth: usize, prefix: &str) -> bool {
        let width = self.query.len() + 1;
        let previous = rows.len() - width;
        let left_of_name = self.length - depth;
        let at_least = |cell: usize, j: usize| cell + (self.query.len() - j).abs_diff(left_of_name);
        let first = rows[previous] + 1;
        rows.push(first);
        let mut least = at_least(first, 0);
        for (j, &q) in self.query.iter().enumerate() {
            let above = rows[previous + j + 1];
            let diagonal = rows[previous + j] + usize::from(q != c);
            let left = rows[rows.len() - 1];
            let distance = (above + 1).min(left + 1).min(diagonal);
            least = least.min(at_least(distance, j + 1));
            rows.push(distance);
        }
        match self.best {
            // Names under the prefix tie with the best so far only to lose: they sort
            // after it.
            Some((best, text)) if best <= self.limit => {
                least > best || (least == best && prefix > text)
            }
            // None yet, or a prefix of the query beyond the threshold.
            _ => least > self.limit,
        }
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
    use pcl_test_utils::generate::Rng;
    use smol_str::SmolStr;

    use super::{
        CandidateNames, ascii_edit_distance, closest_name, edit_distance, suggestion_distance,
    };

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
        // Short names two edits away must start alike: `len` is not `can`, `nmae` is `name`.
        assert_eq!(suggestion_distance("len", "can"), None);
        assert_eq!(suggestion_distance("args", "tags"), None);
        assert_eq!(suggestion_distance("nmae", "name"), Some(2));
        assert_eq!(suggestion_distance("lenght", "length"), Some(2));
        // Another case is one slip: `toJson` is three letters from `toJSON`.
        assert_eq!(suggestion_distance("toJson", "toJSON"), Some(1));
        assert_eq!(
            closest_name("TOJSON", ["toBase64", "toJSON"]),
            Some("toJSON")
        );
        let index = CandidateNames::new(["can", "try", "web", "name"].map(SmolStr::new));
        for (asked, expected) in [
            ("len", None),
            ("str", None),
            ("new", None),
            ("nmae", Some("name")),
        ] {
            assert_eq!(index.closest(asked, None), expected, "{asked}");
        }
    }

    /// Random names over a small alphabet (so that many are close, share prefixes or are
    /// prefixes of each other), with characters of two and three bytes.
    fn random_names(rng: &mut Rng, count: usize, longest: usize) -> Vec<String> {
        const ALPHABET: &[char] = &['a', 'b', 'c', 'd', 'A', 'B', '_', '1', 'é', '€'];
        (0..count)
            .map(|_| {
                let length = 1 + rng.below(longest);
                (0..length)
                    .map(|_| ALPHABET[rng.below(ALPHABET.len())])
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_index_answers_as_comparing_every_candidate_does() {
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        for (count, longest) in [(1, 3), (5, 4), (40, 3), (200, 6), (300, 14), (60, 30)] {
            let candidates = random_names(&mut rng, count, longest);
            let index = CandidateNames::new(candidates.iter().map(SmolStr::new));
            let mut asked = random_names(&mut rng, 300, longest + 3);
            asked.extend(candidates.iter().take(20).cloned());
            for name in &asked {
                for except in [Some(candidates[0].as_str()), Some(name.as_str()), None] {
                    let others = candidates
                        .iter()
                        .map(String::as_str)
                        .filter(|c| Some(*c) != except);
                    let expected = closest_name(name, others);
                    assert_eq!(
                        index.closest(name, except),
                        expected,
                        "{name:?} except {except:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn names_are_found_by_what_follows_their_namespace() {
        let names = ["app:seed", "seed2", "b:x:port", "a:port"];
        let index = CandidateNames::new(names.into_iter().map(SmolStr::new));
        assert_eq!(index.with_namespace("seed"), Some("app:seed"));
        assert_eq!(index.with_namespace("port"), Some("a:port"));
        assert_eq!(index.with_namespace("x"), None);
        assert_eq!(index.with_namespace("seed2"), None);
    }

    #[test]
    fn the_index_prefers_the_nearest_then_the_first_in_order() {
        let names = ["bucket", "bucket2", "bucket3", "buckets", "queue", "b"];
        let index = CandidateNames::new(names.into_iter().map(SmolStr::new));
        assert_eq!(index.closest("bucket1", None), Some("bucket"));
        assert_eq!(index.closest("bucket1", Some("bucket")), Some("bucket2"));
        assert_eq!(index.closest("bucketNameLong", None), Some("bucket"));
        assert_eq!(index.closest("bq", Some("b")), None);
        assert_eq!(index.closest("bq", None), Some("b"));
        assert_eq!(index.closest("qeue", None), Some("queue"));
        assert_eq!(index.closest("xyz", None), None);
        assert_eq!(CandidateNames::default().closest("x", None), None);
        // The empty name is a prefix of every name.
        let with_empty = CandidateNames::new(["", "abc"].into_iter().map(SmolStr::new));
        assert_eq!(with_empty.closest("xyz", None), Some(""));
        assert_eq!(closest_name("xyz", ["", "abc"]), Some(""));
        assert_eq!(with_empty.closest("xyz", Some("")), None);
    }

    /// A name past `LONGEST_COMPARED` characters is suggested only the candidates it
    /// starts with, by the index as when comparing one by one; one of that length still
    /// gets its near misses.
    #[test]
    fn a_very_long_name_is_suggested_only_what_it_starts_with() {
        let long = "a".repeat(40_000);
        let misspelt = format!("{}b", &long[1..]);
        let names = [long.as_str(), "aaa", "zzz"];
        let index = CandidateNames::new(names.into_iter().map(SmolStr::new));
        assert_eq!(index.closest(&misspelt, None), Some("aaa"));
        assert_eq!(closest_name(&misspelt, names), Some("aaa"));
        assert_eq!(index.closest(&format!("b{long}"), None), None);
        assert_eq!(suggestion_distance(&misspelt, &long), None);
        let at_limit = "x".repeat(super::LONGEST_COMPARED);
        let near = format!("{}y", &at_limit[1..]);
        let index = CandidateNames::new([SmolStr::new(&at_limit)]);
        assert_eq!(index.closest(&near, None), Some(at_limit.as_str()));
        assert_eq!(suggestion_distance(&near, &at_limit), Some(1));
    }
}
