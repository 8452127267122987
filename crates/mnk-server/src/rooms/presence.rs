//! Who is here: which seats of a room have a live connection, so that a player sees whether the
//! opponent is at the board or away.
//!
//! A seat is here while a WebSocket that said `hello` for it is open on some server, or while a
//! long poll made with its token is waiting or ended less than [`POLL_GRACE`] ago (counted from
//! when it really ended, early on a change or when its client left, not from the end of the
//! wait it asked for; the server looks again the moment the grace is over). Each server
//! counts its own connections; with PostgreSQL it tells the others what it sees of a room when
//! that changes and again every [`REFRESH`], and forgets another server's report after [`STALE`]
//! without a refresh, so a server that died stops holding seats "here" within a minute. A seat
//! is here if any server sees it. Presence is not stored: it is what is true now, and a restarted
//! server learns it again as clients reconnect.
//!
//! Each server also counts how long a seat has been away: from the moment it saw the seat go
//! (its last socket closed, its long poll's grace ended, another server's report said so or went
//! stale), or from when it first looked at the room if it never saw the seat here. That is what
//! lets a player claim a game the opponent left ([`super::referee::claim`]); a server that
//! restarts, or has not looked at the room for [`FORGET`], starts counting again, so the wait is
//! never shorter than asked, only sometimes longer.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

/// How long after a long poll ends its seat still counts as here (the client polls again at once).
pub const POLL_GRACE: Duration = Duration::from_secs(10);
/// How often a server repeats to the others what it sees.
pub const REFRESH: Duration = Duration::from_secs(20);
/// How long another server's report lasts without a refresh.
pub const STALE: Duration = Duration::from_secs(60);
/// How long a room nobody is in is remembered (with how long its seats have been away).
pub const FORGET: Duration = Duration::from_secs(60 * 60);

/// Which of seats 0 and 1 are here.
pub type Seats = [bool; 2];

/// What one room's presence is made of, on this server.
#[derive(Debug)]
struct RoomPresence {
    /// Open sockets seated in each seat.
    sockets: [u32; 2],
    /// Long polls waiting for each seat.
    polling: [u32; 2],
    /// Until when each seat's last long poll counts.
    polled_until: [Option<Instant>; 2],
    /// Other servers' reports: server id → (seats, when heard).
    remote: HashMap<String, (Seats, Instant)>,
    /// What this server last reported of its own connections.
    reported: Seats,
    /// What the room's watchers here were last told.
    shown: Seats,
    /// Since when each seat has been away (meaningful while it is): when it was seen to go, or
    /// when this server first looked at the room.
    away_since: [Instant; 2],
    /// When anything last happened to the room's presence.
    changed: Instant,
}

impl RoomPresence {
    fn new(now: Instant) -> RoomPresence {
        RoomPresence {
            sockets: [0; 2],
            polling: [0; 2],
            polled_until: [None; 2],
            remote: HashMap::new(),
            reported: [false; 2],
            shown: [false; 2],
            away_since: [now; 2],
            changed: now,
        }
    }

    fn local(&self, now: Instant) -> Seats {
        [0, 1].map(|seat| {
            self.sockets[seat] > 0
                || self.polling[seat] > 0
                || self.polled_until[seat].is_some_and(|until| until > now)
        })
    }

    fn seats(&self, now: Instant) -> Seats {
        let mut seats = self.local(now);
        for (remote, _) in self.remote.values() {
            seats = [seats[0] || remote[0], seats[1] || remote[1]];
        }
        seats
    }

    /// Whether the room can be forgotten: nobody in it, nobody reported, for [`FORGET`].
    fn forgotten(&self, now: Instant) -> bool {
        self.seats(now) == [false, false]
            && self.shown == [false, false]
            && self.remote.is_empty()
            && now.duration_since(self.changed) >= FORGET
    }
}

/// What changed with an event: what to tell the other servers, what to tell this server's
/// watchers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Change {
    /// This server's own view of the room changed: report it to the other servers.
    pub report: Option<Seats>,
    /// The room's presence changed: tell its watchers.
    pub show: Option<Seats>,
}

/// The presence of every room with someone connected here (or reported by another server).
#[derive(Debug, Default)]
pub struct Presence {
    rooms: Mutex<HashMap<String, RoomPresence>>,
}

impl Presence {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, RoomPresence>> {
        self.rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Applies `event` to `room`'s presence and says what changed.
    fn update(&self, room: &str, now: Instant, event: impl FnOnce(&mut RoomPresence)) -> Change {
        let mut rooms = self.lock();
        let presence = rooms
            .entry(room.to_string())
            .or_insert_with(|| RoomPresence::new(now));
        event(presence);
        settle(presence, now)
    }

    /// A socket seated in `seat` of `room` opened, at `now`.
    pub fn socket_opened(&self, room: &str, seat: usize, now: Instant) -> Change {
        self.update(room, now, |p| p.sockets[seat & 1] += 1)
    }

    /// A socket seated in `seat` of `room` closed, at `now`.
    pub fn socket_closed(&self, room: &str, seat: usize, now: Instant) -> Change {
        self.update(room, now, |p| {
            p.sockets[seat & 1] = p.sockets[seat & 1].saturating_sub(1);
        })
    }

    /// A long poll for `seat` of `room` began waiting at `now`.
    pub fn poll_started(&self, room: &str, seat: usize, now: Instant) -> Change {
        self.update(room, now, |p| p.polling[seat & 1] += 1)
    }

    /// A long poll for `seat` of `room` ended at `now` (answered, or its client gone): the seat
    /// stays here for [`POLL_GRACE`] more, the time for the client to poll again.
    pub fn poll_ended(&self, room: &str, seat: usize, now: Instant) -> Change {
        self.update(room, now, |p| {
            let seat = seat & 1;
            p.polling[seat] = p.polling[seat].saturating_sub(1);
            let until = now + POLL_GRACE;
            let slot = &mut p.polled_until[seat];
            *slot = Some(slot.map_or(until, |old| old.max(until)));
        })
    }

    /// Looks at `room` at `now` (a long poll's grace may just have ended): what changed.
    pub fn look(&self, room: &str, now: Instant) -> Change {
        self.update(room, now, |_| {})
    }

    /// Another server's report of what it sees of `room`, heard at `now`.
    pub fn heard(&self, room: &str, server: &str, seats: Seats, now: Instant) -> Change {
        self.update(room, now, |p| {
            if seats == [false, false] {
                p.remote.remove(server);
            } else {
                p.remote.insert(server.to_string(), (seats, now));
            }
        })
    }

    /// The seats of `room` that are here at `now`.
    #[must_use]
    pub fn seats(&self, room: &str, now: Instant) -> Seats {
        self.lock()
            .get(room)
            .map_or([false, false], |p| p.seats(now))
    }

    /// How long each seat of `room` has been away at `now` (`None` for a seat that is here).
    /// Asking starts the count for a room this server had not looked at.
    pub fn away(&self, room: &str, now: Instant) -> [Option<Duration>; 2] {
        let mut rooms = self.lock();
        let presence = rooms
            .entry(room.to_string())
            .or_insert_with(|| RoomPresence::new(now));
        let seats = presence.seats(now);
        [0, 1].map(|seat| {
            // Gone since the last look (a long poll's grace just ended, a report just went
            // stale) and not yet recorded: count from now, never from an older moment.
            let just_gone = presence.shown[seat];
            (!seats[seat]).then(|| {
                if just_gone {
                    Duration::ZERO
                } else {
                    now.duration_since(presence.away_since[seat])
                }
            })
        })
    }

    /// Ends long polls' grace and other servers' stale reports at `now`: the rooms whose
    /// presence changed, with what changed.
    pub fn expire(&self, now: Instant) -> Vec<(String, Change)> {
        let mut rooms = self.lock();
        let mut changes = Vec::new();
        for (room, presence) in rooms.iter_mut() {
            presence
                .remote
                .retain(|_, (_, heard)| now.duration_since(*heard) < STALE);
            let change = settle(presence, now);
            if change != Change::default() {
                changes.push((room.clone(), change));
            }
        }
        rooms.retain(|_, p| !p.forgotten(now));
        changes
    }

    /// What this server sees of each room where it sees someone: to repeat to the others.
    #[must_use]
    pub fn reports(&self) -> Vec<(String, Seats)> {
        self.lock()
            .iter()
            .filter(|(_, p)| p.reported != [false, false])
            .map(|(room, p)| (room.clone(), p.reported))
            .collect()
    }
}

/// Compares a room's presence with what was reported and shown, and records the new values
/// (and when a seat seen here went away).
fn settle(presence: &mut RoomPresence, now: Instant) -> Change {
    let local = presence.local(now);
    let seats = presence.seats(now);
    let change = Change {
        report: (local != presence.reported).then_some(local),
        show: (seats != presence.shown).then_some(seats),
    };
    for ((since, shown), here) in presence
        .away_since
        .iter_mut()
        .zip(presence.shown)
        .zip(seats)
    {
        if shown && !here {
            *since = now;
        }
    }
    if change != Change::default() {
        presence.changed = now;
    }
    presence.reported = local;
    presence.shown = seats;
    change
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sockets_make_a_seat_here_until_the_last_one_closes() {
        let presence = Presence::default();
        let now = Instant::now();
        let opened = presence.socket_opened("r", 1, now);
        assert_eq!(opened.show, Some([false, true]));
        assert_eq!(opened.report, Some([false, true]));
        assert_eq!(presence.socket_opened("r", 1, now), Change::default());
        assert_eq!(presence.socket_closed("r", 1, now), Change::default());
        assert_eq!(presence.seats("r", now), [false, true]);
        let closed = presence.socket_closed("r", 1, now);
        assert_eq!(closed.show, Some([false, false]));
        assert_eq!(presence.seats("r", now), [false, false]);
        assert!(presence.expire(now + FORGET / 2).is_empty());
        assert_eq!(presence.lock().len(), 1, "a room just left is remembered");
        presence.expire(now + FORGET);
        assert!(
            presence.lock().is_empty(),
            "a room left long ago is forgotten"
        );
    }

    #[test]
    fn another_servers_report_counts_but_is_not_reported_back() {
        let presence = Presence::default();
        let now = Instant::now();
        let heard = presence.heard("r", "b", [true, false], now);
        assert_eq!(heard.show, Some([true, false]));
        assert_eq!(heard.report, None);
        assert_eq!(presence.socket_opened("r", 0, now).show, None);
        assert_eq!(presence.reports(), vec![("r".to_string(), [true, false])]);
        assert_eq!(
            presence.heard("r", "b", [false, false], now),
            Change::default()
        );
        assert_eq!(
            presence.socket_closed("r", 0, now).show,
            Some([false, false])
        );
    }

    #[test]
    fn a_long_poll_counts_while_it_waits_and_for_the_grace_after_it_ends() {
        let presence = Presence::default();
        let now = Instant::now();
        let secs = |s: u64| now + Duration::from_secs(s);
        assert_eq!(presence.poll_started("r", 0, now).show, Some([true, false]));
        // However long it waits, it counts.
        assert!(presence.expire(secs(60)).is_empty());
        // It ended (early, on a change) at 61 s: here until 71 s, not a moment longer.
        assert_eq!(presence.poll_ended("r", 0, secs(61)), Change::default());
        assert!(presence
            .expire(secs(71) - Duration::from_millis(1))
            .is_empty());
        let expired = presence.expire(secs(71));
        assert_eq!(expired.len(), 1);
        assert_eq!(expired[0].1.show, Some([false, false]));
        assert_eq!(expired[0].1.report, Some([false, false]));
        presence.expire(secs(71) + FORGET);
        assert!(presence.lock().is_empty());
    }

    #[test]
    fn the_next_poll_within_the_grace_keeps_the_seat_here() {
        let presence = Presence::default();
        let now = Instant::now();
        let secs = |s: u64| now + Duration::from_secs(s);
        presence.poll_started("r", 1, now);
        presence.poll_ended("r", 1, secs(30));
        assert_eq!(presence.poll_started("r", 1, secs(31)), Change::default());
        assert!(presence.expire(secs(45)).is_empty());
        presence.poll_ended("r", 1, secs(50));
        assert!(presence.expire(secs(59)).is_empty());
        assert_eq!(presence.expire(secs(60))[0].1.show, Some([false, false]));
    }

    #[test]
    fn a_silent_servers_report_goes_stale() {
        let presence = Presence::default();
        let now = Instant::now();
        presence.heard("r", "b", [false, true], now);
        assert!(presence.expire(now + STALE / 2).is_empty());
        let later = now + STALE + Duration::from_secs(1);
        let expired = presence.expire(later);
        assert_eq!(expired[0].1.show, Some([false, false]));
        assert_eq!(presence.seats("r", later), [false, false]);
    }

    #[test]
    fn a_seat_is_away_from_when_it_was_seen_to_go_or_from_the_first_look() {
        let presence = Presence::default();
        let now = Instant::now();
        let secs = |s: u64| now + Duration::from_secs(s);
        presence.socket_opened("r", 0, now);
        presence.socket_opened("r", 1, secs(1));
        assert_eq!(presence.away("r", secs(2)), [None, None]);
        presence.socket_closed("r", 1, secs(5));
        assert_eq!(
            presence.away("r", secs(65)),
            [None, Some(Duration::from_secs(60))]
        );
        // Back, and gone again: the count starts over.
        presence.socket_opened("r", 1, secs(70));
        presence.socket_closed("r", 1, secs(80));
        assert_eq!(
            presence.away("r", secs(90))[1],
            Some(Duration::from_secs(10))
        );
        // A room this server never saw anyone in: counted from the first look.
        assert_eq!(
            presence.away("new", secs(100)),
            [Some(Duration::ZERO), Some(Duration::ZERO)]
        );
        assert_eq!(
            presence.away("new", secs(130)),
            [Some(Duration::from_secs(30)), Some(Duration::from_secs(30))]
        );
    }

    #[test]
    fn a_seat_held_by_a_silent_server_is_away_from_when_its_report_went_stale() {
        let presence = Presence::default();
        let now = Instant::now();
        presence.socket_opened("r", 0, now);
        presence.heard("r", "b", [false, true], now);
        assert_eq!(presence.away("r", now + STALE / 2), [None, None]);
        let stale = now + STALE;
        presence.expire(stale);
        let later = stale + Duration::from_secs(7);
        assert_eq!(
            presence.away("r", later),
            [None, Some(Duration::from_secs(7))]
        );
        // The seat's own report of leaving starts the count at once.
        presence.heard("r", "b", [false, true], later);
        let left = later + Duration::from_secs(1);
        presence.heard("r", "b", [false, false], left);
        assert_eq!(
            presence.away("r", left + Duration::from_secs(3))[1],
            Some(Duration::from_secs(3))
        );
    }

    #[test]
    fn a_seat_whose_long_poll_grace_just_ended_has_been_away_for_no_time() {
        let presence = Presence::default();
        let now = Instant::now();
        let secs = |s: u64| now + Duration::from_secs(s);
        presence.poll_started("r", 0, now);
        presence.poll_ended("r", 0, secs(100));
        // The grace is over at 110 s; nothing has looked at the room since (no tick): the seat
        // is away, from now, not from when the room was first seen.
        assert_eq!(presence.away("r", secs(111))[0], Some(Duration::ZERO));
        presence.expire(secs(112));
        assert_eq!(
            presence.away("r", secs(120))[0],
            Some(Duration::from_secs(8))
        );
    }
}
