//! The solved books the server answers exact values from: the ones shipped in the binary
//! (`books/` of the repository, also served to the page's worker as `/books/NAME`), to which
//! `mnk serve --book FILE` adds or replaces one per rule set (see [`mnk_api::books`]).

use std::sync::OnceLock;

pub use mnk_api::books::{Books, BooksError};

/// The books embedded in the binary: their path in the repository, and the text.
pub const SHIPPED: &[(&str, &str)] = &[
    (
        "books/7x6x5.book",
        include_str!("../../../books/7x6x5.book"),
    ),
    (
        "books/7x7x5.book",
        include_str!("../../../books/7x7x5.book"),
    ),
];

/// The books shipped in the binary (read once; a test keeps them readable).
#[must_use]
pub fn shipped() -> Books {
    static SHIPPED_BOOKS: OnceLock<Books> = OnceLock::new();
    SHIPPED_BOOKS
        .get_or_init(|| {
            let mut books = Books::none();
            for &(name, text) in SHIPPED {
                // A shipped book is checked by a test; never stop a server over one.
                if let Err(e) = books.add_shipped(name, text) {
                    tracing::error!("{e}");
                }
            }
            books
        })
        .clone()
}

/// The shipped books with `files` added, each replacing a shipped book of its rules.
pub fn with_files(files: &[std::path::PathBuf]) -> Result<Books, BooksError> {
    shipped().with_files(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_books_load() {
        assert_eq!(shipped().len(), SHIPPED.len());
        for &(name, text) in SHIPPED {
            let mut books = Books::none();
            books
                .add_shipped(name, text)
                .unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
