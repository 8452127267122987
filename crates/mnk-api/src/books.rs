//! The solved opening books exact values are answered from, one per rule set: on the server the
//! ones shipped in its binary (`books/` of the repository) and those given with
//! `mnk serve --book FILE`; in the page's worker the shipped ones, fetched once and cached.
//!
//! Books are read and checked when they are shelved, so a bad file is refused with its name and
//! line rather than failing a request later. A file for rules a shipped book covers replaces that
//! book; two files for the same rules are refused, since nobody could say which to trust.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mnk_core::Rules;
use mnk_engine::solver::book::{Book, BookError};
use mnk_engine::solver::book_index::{BookIndex, Unindexable};

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

    /// Shelves `text`, a shipped book called `name` (a path for messages): it is replaced by a
    /// file given later for the same rules.
    pub fn add_shipped(&mut self, name: &str, text: &str) -> Result<(), BooksError> {
        let index = index(Path::new(name), text)?;
        shelve(Arc::make_mut(&mut self.by_rules), index, name.into(), true);
        Ok(())
    }

    /// These books with `files` added (each replacing a shipped book of its rules).
    pub fn with_files(&self, files: &[PathBuf]) -> Result<Books, BooksError> {
        let mut books = (*self.by_rules).clone();
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

    /// How many rule sets have a book.
    #[must_use]
    pub fn len(&self) -> usize {
        self.by_rules.len()
    }

    /// Whether there is no book at all.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.by_rules.is_empty()
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
    fn a_shipped_book_is_replaced_by_a_file_and_bad_text_is_refused() {
        let text = include_str!("../../../books/7x7x5.book");
        let mut books = Books::none();
        books.add_shipped("books/7x7x5.book", text).unwrap();
        assert_eq!(books.len(), 1);
        let rules: Rules = "7x7x5".parse().unwrap();
        assert!(books.for_rules(&rules).is_some_and(|b| !b.is_empty()));
        let e = books.add_shipped("broken.book", "not a book").unwrap_err();
        assert!(e.to_string().contains("broken.book"), "{e}");
    }
}
