//! Who is watching which room on this server, and telling them about changes.
//!
//! Each room with a client connected here (a WebSocket, a long poll) has a broadcast channel.
//! After a change the server that made it publishes the room's new state; with PostgreSQL every
//! other server hears `room:version` on [`super::store::NOTIFY_CHANNEL`] and publishes too, after
//! reading the room. A state is published only if it is newer than the last one published for
//! the room, so a server that hears of its own change, or hears late, sends nothing twice or
//! backwards.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

/// What a room's watchers receive: a version and the `state` message for it, serialised once (or
/// a `presence` message between states).
#[derive(Clone, Debug)]
pub struct Push {
    /// The room's version.
    pub version: i64,
    /// The message as a line of JSON.
    pub text: Arc<str>,
    /// Whether it is a `state` message (else a `presence` one, which a long poll ignores).
    pub state: bool,
}

/// A room's channel and the last version published on it.
#[derive(Debug)]
struct Channel {
    sender: broadcast::Sender<Push>,
    version: i64,
}

/// The watched rooms of this server.
#[derive(Debug, Default)]
pub struct Hub {
    rooms: Mutex<HashMap<String, Channel>>,
}

/// Messages a slow watcher may fall behind by before it misses some (it then reads the room
/// afresh: the state is whole in every message, so nothing is lost but intermediate steps).
const CHANNEL_CAPACITY: usize = 16;

impl Hub {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Channel>> {
        self.rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Starts watching `room`.
    pub fn subscribe(&self, room: &str) -> broadcast::Receiver<Push> {
        let mut rooms = self.lock();
        let channel = rooms.entry(room.to_string()).or_insert_with(|| Channel {
            sender: broadcast::channel(CHANNEL_CAPACITY).0,
            version: 0,
        });
        channel.sender.subscribe()
    }

    /// Whether anyone here watches `room`, and the last version they were sent.
    #[must_use]
    pub fn watched(&self, room: &str) -> Option<i64> {
        self.lock()
            .get(room)
            .filter(|c| c.sender.receiver_count() > 0)
            .map(|c| c.version)
    }

    /// Sends `push` to the room's watchers if it is newer than what they were sent.
    pub fn publish(&self, room: &str, push: Push) {
        let mut rooms = self.lock();
        if let Some(channel) = rooms.get_mut(room) {
            if push.version > channel.version {
                channel.version = push.version;
                // No receiver left is not an error: the channel is dropped at the next sweep.
                let _ = channel.sender.send(push);
            }
        }
    }

    /// Sends `text` (a message that is not a state) to the room's watchers, if there are any.
    pub fn announce(&self, room: &str, text: &str) {
        let rooms = self.lock();
        if let Some(channel) = rooms.get(room) {
            // Versioned as the last state, so a long poll waiting for a newer one ignores it.
            let _ = channel.sender.send(Push {
                version: channel.version,
                text: Arc::from(text),
                state: false,
            });
        }
    }

    /// The rooms someone watches; forgets the channels nobody listens to any more.
    pub fn sweep(&self) -> Vec<String> {
        let mut rooms = self.lock();
        rooms.retain(|_, c| c.sender.receiver_count() > 0);
        rooms.keys().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn push(version: i64) -> Push {
        Push {
            version,
            text: Arc::from(format!("v{version}")),
            state: true,
        }
    }

    #[tokio::test]
    async fn watchers_get_each_version_once_and_in_order() {
        let hub = Hub::default();
        let mut a = hub.subscribe("r");
        hub.publish("r", push(2));
        hub.publish("r", push(2));
        hub.publish("r", push(1));
        hub.publish("r", push(3));
        hub.publish("other", push(9));
        assert_eq!(a.recv().await.unwrap().version, 2);
        assert_eq!(a.recv().await.unwrap().version, 3);
        assert!(a.try_recv().is_err());
        assert_eq!(hub.watched("r"), Some(3));
        drop(a);
        assert_eq!(hub.watched("r"), None);
        assert!(hub.sweep().is_empty());
    }
}
