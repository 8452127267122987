//! The solved opening books the server answers exact values from: the ones shipped in the binary
//! (`books/` of the repository) and those given with `mnk serve --book FILE`, one per rule set.
//!
//! Books are read and checked at start-up, so a bad file stops the server with its name and line
//! rather than failing a request later. A file for rules a shipped book covers replaces that
//! book; two files for the same rules are refused, since the server could not say which to trust.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use mnk_core::Rules;
use mnk_engine::solver::book::{Book, BookError};
use mnk_engine::solver::book_index::{BookIndex, Unindexable};

/// The books embedded in the binary: a name for messages, and the text.
const SHIPPED: &[(&str, &str)] = &[
    (
        "books/7x6x5.book",
        include_str!("../../../books/7x6x5.book"),
    ),
    (
        "books/7x7x5.book",
        include_str!("../../../books/7x7x5.book"),
    ),
];

/// Why the books could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum BooksError {
    /// The file could not be read.
    #[error("cannot read the book {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is not a book, or a line of it is wrong.
    #[error("the book {path} is malformed: {source}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong, with the line.
        source: BookError,
    },
    /// The book's rules are not ones the solver takes.
    #[error("the book {path} cannot be served: {source}")]
    Unsolvable {
        /// The file.
        path: PathBuf,
        /// Which rules.
        source: Unindexable,
    },
    /// Two files hold books for the same rules.
    #[error("the books {first} and {second} are both for {rules}: give one book per rule set")]
    Twice {
        /// The rules.
        rules: Rules,
        /// The file given first.
        first: PathBuf,
        /// The file given second.
        second: PathBuf,
    },
}

/// One loaded book and where it came from.
#[derive(Clone, Debug)]
struct Shelved {
    index: BookIndex,
    source: PathBuf,
    shipped: bool,
}

/// The books, by rules. Cheap to clone.
#[derive(Clone, Default)]
pub struct Books {
    by_rules: Arc<HashMap<Rules, Shelved>>,
}

/// A summary, not thousands of indexed positions.
impl std::fmt::Debug for Books {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Books").field(&self.summary()).finish()
    }
}

impl Books {
    /// No books: every position goes to the solver.
    #[must_use]
    pub fn none() -> Books {
        Books::default()
    }

    /// The books shipped in the binary (read once; a test keeps them readable).
    #[must_use]
    pub fn shipped() -> Books {
        static SHIPPED_BOOKS: OnceLock<Books> = OnceLock::new();
        SHIPPED_BOOKS
            .get_or_init(|| {
                let mut books = HashMap::new();
                for &(name, text) in SHIPPED {
                    match index(Path::new(name), text) {
                        Ok(index) => shelve(&mut books, index, name.into(), true),
                        // A shipped book is checked by a test; never stop a server over one.
                        Err(e) => tracing::error!("{e}"),
                    }
                }
                Books {
                    by_rules: Arc::new(books),
                }
            })
            .clone()
    }

    /// The shipped books with `files` added (each replacing a shipped book of its rules).
    pub fn with_files(files: &[PathBuf]) -> Result<Books, BooksError> {
        let mut books = (*Books::shipped().by_rules).clone();
        for path in files {
            let text = std::fs::read_to_string(path).map_err(|source| BooksError::Read {
                path: path.clone(),
                source,
            })?;
            let index = index(path, &text)?;
            if let Some(earlier) = books.get(index.rules()).filter(|s| !s.shipped) {
                return Err(BooksError::Twice {
                    rules: *index.rules(),
                    first: earlier.source.clone(),
                    second: path.clone(),
                });
            }
            shelve(&mut books, index, path.clone(), false);
        }
        Ok(Books {
            by_rules: Arc::new(books),
        })
    }

    /// The book for `rules`, if there is one.
    #[must_use]
    pub fn for_rules(&self, rules: &Rules) -> Option<&BookIndex> {
        self.by_rules.get(rules).map(|s| &s.index)
    }

    /// Each book's rules, positions and file, for the start-up log.
    #[must_use]
    pub fn summary(&self) -> String {
        let mut lines: Vec<String> = self
            .by_rules
            .values()
            .map(|s| {
                format!(
                    "{} ({} positions, {})",
                    s.index.rules(),
                    s.index.len(),
                    s.source.display()
                )
            })
            .collect();
        lines.sort();
        lines.join(", ")
    }
}

/// Reads and indexes the book `text` from `path`.
fn index(path: &Path, text: &str) -> Result<BookIndex, BooksError> {
    let book: Book = text.parse().map_err(|source| BooksError::Malformed {
        path: path.to_path_buf(),
        source,
    })?;
    BookIndex::new(&book).map_err(|source| BooksError::Unsolvable {
        path: path.to_path_buf(),
        source,
    })
}

fn shelve(books: &mut HashMap<Rules, Shelved>, index: BookIndex, source: PathBuf, shipped: bool) {
    books.insert(
        *index.rules(),
        Shelved {
            index,
            source,
            shipped,
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_books_load() {
        for &(name, text) in SHIPPED {
            let index = index(Path::new(name), text).unwrap_or_else(|e| panic!("{e}"));
            assert!(!index.is_empty(), "{name}");
        }
        assert_eq!(Books::shipped().by_rules.len(), SHIPPED.len());
    }
}
