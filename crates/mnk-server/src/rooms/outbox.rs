//! What one room socket has still to send, bounded whatever its client does.
//!
//! A socket's session reads and writes in two tasks: the writer takes messages from this queue
//! and sends them, however long that takes, while the session goes on hearing the client, the
//! room and the silence timer. So the queue is where a slow reader is met. Every `state` is the
//! whole room, so a newer one replaces an older one still queued (a slow reader gets the latest
//! state, not every move), and likewise `presence` and pings; what is left, answers to the
//! client's own messages, is capped by [`MAX_QUEUED_MESSAGES`] and [`MAX_QUEUED_BYTES`]: a
//! client that sends and never reads overflows it and is closed with [`NOT_READING`]. A client
//! that reads nothing at all stalls the writer, whose writes the connection gives up after its
//! write timeout ([`crate::stalls`]).

use std::collections::VecDeque;
use std::sync::Mutex;

use axum::extract::ws::{CloseFrame, Message};
use tokio::sync::Notify;

/// Messages queued for one socket at most (replaced states do not count twice).
pub const MAX_QUEUED_MESSAGES: usize = 64;
/// Bytes queued for one socket at most.
pub const MAX_QUEUED_BYTES: usize = 256 * 1024;
/// The close code for a client that does not read what it is sent (1008, policy violation).
pub const NOT_READING: u16 = 1008;

/// What a queued message is, for replacing an older one of the same kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The room's whole state: a newer one replaces an older one.
    State,
    /// Who is here: a newer one replaces an older one.
    Presence,
    /// The server's ping: one queued is enough.
    Ping,
    /// An answer to one of the client's messages: each is kept.
    Reply,
}

/// The queue is over its caps: the client is not reading.
#[derive(Debug, PartialEq, Eq)]
pub struct Overflow;

/// One socket's messages waiting to be sent.
#[derive(Debug, Default)]
pub struct Outbox {
    queue: Mutex<Queue>,
    ready: Notify,
}

#[derive(Debug, Default)]
struct Queue {
    items: VecDeque<(Option<Kind>, Message)>,
    bytes: usize,
    /// A close frame is queued last: nothing more is taken.
    closed: bool,
}

impl Queue {
    fn remove(&mut self, index: usize) {
        if let Some((_, message)) = self.items.remove(index) {
            self.bytes -= size(&message);
        }
    }
}

/// The bytes a message carries.
fn size(message: &Message) -> usize {
    match message {
        Message::Text(text) => text.len(),
        Message::Binary(bytes) | Message::Ping(bytes) | Message::Pong(bytes) => bytes.len(),
        Message::Close(frame) => frame.as_ref().map_or(0, |f| f.reason.len()),
    }
}

impl Outbox {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Queues `message`, replacing a queued one of the same kind unless it is a reply;
    /// [`Overflow`] when the queue would pass its caps (the message is not queued).
    pub fn push(&self, kind: Kind, message: Message) -> Result<(), Overflow> {
        let mut queue = self.lock();
        if queue.closed {
            return Ok(());
        }
        if kind != Kind::Reply {
            if let Some(old) = queue.items.iter().position(|(k, _)| *k == Some(kind)) {
                queue.remove(old);
            }
        }
        if queue.items.len() >= MAX_QUEUED_MESSAGES
            || queue.bytes + size(&message) > MAX_QUEUED_BYTES
        {
            return Err(Overflow);
        }
        queue.bytes += size(&message);
        queue.items.push_back((Some(kind), message));
        drop(queue);
        self.ready.notify_one();
        Ok(())
    }

    /// Drops what is queued and queues `frame` as the last message: the client is going, and
    /// should learn why if it reads at all.
    pub fn close(&self, frame: CloseFrame) {
        let mut queue = self.lock();
        if queue.closed {
            return;
        }
        queue.items.clear();
        queue.bytes = 0;
        queue.items.push_back((None, Message::Close(Some(frame))));
        queue.closed = true;
        drop(queue);
        self.ready.notify_one();
    }

    /// The next message to send, once there is one; `None` after the close frame.
    pub async fn next(&self) -> Option<Message> {
        loop {
            {
                let mut queue = self.lock();
                if let Some((_, message)) = queue.items.pop_front() {
                    queue.bytes -= size(&message);
                    return Some(message);
                }
                if queue.closed {
                    return None;
                }
            }
            // A push between the check and here leaves a permit: no wake-up is lost.
            self.ready.notified().await;
        }
    }

    /// Messages and bytes queued now.
    #[must_use]
    pub fn queued(&self) -> (usize, usize) {
        let queue = self.lock();
        (queue.items.len(), queue.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Message {
        Message::Text(s.into())
    }

    #[tokio::test]
    async fn a_newer_state_replaces_the_queued_one_and_replies_are_kept_in_order() {
        let outbox = Outbox::default();
        outbox.push(Kind::State, text("state 1")).unwrap();
        outbox.push(Kind::Reply, text("pong")).unwrap();
        outbox.push(Kind::State, text("state 2")).unwrap();
        outbox.push(Kind::Presence, text("here 1")).unwrap();
        outbox.push(Kind::Presence, text("here 2")).unwrap();
        outbox.push(Kind::Reply, text("welcome")).unwrap();
        let mut sent = Vec::new();
        while outbox.queued().0 > 0 {
            sent.push(
                outbox
                    .next()
                    .await
                    .unwrap()
                    .into_text()
                    .unwrap()
                    .to_string(),
            );
        }
        assert_eq!(sent, ["pong", "state 2", "here 2", "welcome"]);
    }

    #[tokio::test]
    async fn a_thousand_states_unsent_hold_one_but_unread_replies_overflow() {
        let outbox = Outbox::default();
        for i in 0..1000 {
            outbox.push(Kind::State, text(&"s".repeat(i))).unwrap();
        }
        assert_eq!(outbox.queued(), (1, 999));
        let mut pushed = 0;
        while outbox.push(Kind::Reply, text("pong")).is_ok() {
            pushed += 1;
        }
        assert_eq!(pushed, MAX_QUEUED_MESSAGES - 1);
        let big = "x".repeat(MAX_QUEUED_BYTES);
        assert_eq!(Outbox::default().push(Kind::Reply, text(&big)), Ok(()));
        assert_eq!(
            Outbox::default().push(Kind::Reply, text(&(big + "x"))),
            Err(Overflow)
        );
    }

    #[tokio::test]
    async fn closing_drops_the_queue_and_sends_the_frame_last() {
        let outbox = Outbox::default();
        outbox.push(Kind::State, text("state")).unwrap();
        outbox.close(CloseFrame {
            code: NOT_READING,
            reason: "read".into(),
        });
        outbox.push(Kind::Reply, text("late")).unwrap();
        assert!(
            matches!(outbox.next().await, Some(Message::Close(Some(f))) if f.code == NOT_READING)
        );
        assert!(outbox.next().await.is_none());
    }
}
