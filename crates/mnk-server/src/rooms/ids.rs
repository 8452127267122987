//! Room ids and seat tokens: random strings from the operating system's CSPRNG.
//!
//! A room id is a link people share, so it is short and easy to copy: 14 characters of a
//! 32-letter alphabet without look-alikes (70 bits, far beyond guessing by trying). A seat token
//! is a password the browser keeps: 32 characters (160 bits). The database keeps only a token's
//! SHA-256, so a copy of it cannot be used to play someone's stones.

use sha2::{Digest, Sha256};

/// The letters of ids and tokens: digits and lower-case letters without `0 1 l o` look-alikes…
/// four letters short of 36, so that one byte's low five bits pick a letter uniformly.
const ALPHABET: &[u8; 32] = b"23456789abcdefghijkmnpqrstuvwxyz";

/// Characters in a room id.
pub const ROOM_ID_LEN: usize = 14;
/// Characters in a seat token.
pub const TOKEN_LEN: usize = 32;

/// A random string of `len` letters of [`ALPHABET`].
fn random_text(len: usize) -> String {
    let mut bytes = vec![0u8; len];
    // Without the system's randomness no room can be private: nothing sensible to go on with.
    getrandom::fill(&mut bytes).expect("the operating system gives random bytes");
    bytes
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(b & 31)]))
        .collect()
}

/// A new room id.
#[must_use]
pub fn new_room_id() -> String {
    random_text(ROOM_ID_LEN)
}

/// A new seat token.
#[must_use]
pub fn new_token() -> String {
    random_text(TOKEN_LEN)
}

/// Whether `text` can be a room id (checked before it reaches the database).
#[must_use]
pub fn is_room_id(text: &str) -> bool {
    text.len() == ROOM_ID_LEN && text.bytes().all(|b| ALPHABET.contains(&b))
}

/// What the database keeps of a token: its SHA-256 in hex.
#[must_use]
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_tokens_are_random_strings_of_the_alphabet() {
        let a = new_room_id();
        assert!(is_room_id(&a), "{a}");
        assert_ne!(a, new_room_id());
        assert_eq!(new_token().len(), TOKEN_LEN);
        assert!(!is_room_id("ABCDEFGHIJKLMN"));
        assert!(!is_room_id("short"));
        assert!(!is_room_id("2345678abcdefl"), "l is not in the alphabet");
    }

    #[test]
    fn tokens_are_kept_as_their_sha256() {
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
