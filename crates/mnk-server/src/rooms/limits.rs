//! Per-address limits on what clients ask of rooms: creating rooms, joining them, acting in them
//! (moves, resignations, offers, bot invitations, over HTTP or the WebSocket) and reading them
//! (states, long polls, sockets opened, finished games).
//!
//! Each kind has its own keyed GCRA limiter (`governor`), so a client flooding one kind is refused
//! `429 rate_limited` with `Retry-After` for that kind only, other addresses are not affected, and
//! a refused request changes nothing: the check comes before the room is read. A rate of "N a
//! period" admits N at once after a pause, then one every period / N. Requests made in-process
//! (a bot's moves) have no address and no limit. Behind a load balancer every client has the
//! balancer's address: raise the limits there, or set them in the balancer.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

use crate::clients::Client;
use crate::error::ApiError;

/// What a client asks of the rooms, each kind limited on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// `POST /api/rooms`.
    Create,
    /// `POST /api/rooms/ID/join`.
    Join,
    /// A move, resignation, draw or rematch offer, bot invitation: over HTTP or the socket.
    Act,
    /// `GET /api/rooms/ID` (a long poll too), a socket opened or seated, a finished game.
    Read,
}

impl Ask {
    /// The kind's words in refusals.
    fn words(self) -> &'static str {
        match self {
            Ask::Create => "rooms created",
            Ask::Join => "rooms joined",
            Ask::Act => "moves and other actions in rooms",
            Ask::Read => "room reads (states, long polls, sockets)",
        }
    }
}

/// A rate: at most `count` every `period`, all of them at once after a pause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// How many.
    pub count: u32,
    /// In how long.
    pub period: Duration,
}

impl Rate {
    /// `count` a minute.
    #[must_use]
    pub const fn per_minute(count: u32) -> Rate {
        Rate {
            count,
            period: Duration::from_secs(60),
        }
    }

    /// `count` an hour.
    #[must_use]
    pub const fn per_hour(count: u32) -> Rate {
        Rate {
            count,
            period: Duration::from_secs(3600),
        }
    }

    fn quota(self) -> Quota {
        let count = NonZeroU32::new(self.count.max(1)).expect("at least one");
        let every = (self.period / count.get()).max(Duration::from_micros(1));
        Quota::with_period(every)
            .expect("a positive period")
            .allow_burst(count)
    }

    /// "20 a minute", "60 an hour", for messages.
    fn shown(self) -> String {
        let period = match self.period.as_secs() {
            60 => "a minute".to_string(),
            3600 => "an hour".to_string(),
            1 => "a second".to_string(),
            _ => format!("every {:?}", self.period),
        };
        format!("{} {period}", self.count)
    }
}

/// The limits of one address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddressRates {
    /// Rooms created.
    pub creations: Rate,
    /// Rooms joined.
    pub joins: Rate,
    /// Moves, resignations, offers and bot invitations.
    pub actions: Rate,
    /// Room states read, long polls, sockets opened or seated, finished games read.
    pub reads: Rate,
}

impl Default for AddressRates {
    fn default() -> AddressRates {
        AddressRates::DEFAULT
    }
}

impl AddressRates {
    /// The allowances of `mnk serve` unless told: 60 rooms created an hour, 60 joined, 300
    /// actions and 600 reads a minute.
    pub const DEFAULT: AddressRates = AddressRates {
        creations: Rate::per_hour(60),
        joins: Rate::per_minute(60),
        actions: Rate::per_minute(300),
        reads: Rate::per_minute(600),
    };

    fn rate(&self, ask: Ask) -> Rate {
        match ask {
            Ask::Create => self.creations,
            Ask::Join => self.joins,
            Ask::Act => self.actions,
            Ask::Read => self.reads,
        }
    }
}

/// The limiters of every address.
#[derive(Debug)]
pub struct AddressLimits {
    rates: AddressRates,
    /// One limiter a kind, in the order of [`Ask`].
    limiters: [DefaultKeyedRateLimiter<IpAddr>; 4],
}

impl AddressLimits {
    /// Limiters for `rates`.
    #[must_use]
    pub fn new(rates: AddressRates) -> AddressLimits {
        let limiter = |ask| governor::RateLimiter::keyed(rates.rate(ask).quota());
        AddressLimits {
            rates,
            limiters: [Ask::Create, Ask::Join, Ask::Act, Ask::Read].map(limiter),
        }
    }

    /// Counts `ask` by `client`, or refuses it with `rate_limited` when the address is over its
    /// rate for that kind.
    pub fn check(&self, ask: Ask, client: Client) -> Result<(), ApiError> {
        let Client(Some(ip)) = client else {
            return Ok(());
        };
        let Err(not_until) = self.limiters[ask as usize].check_key(&ip) else {
            return Ok(());
        };
        let wait = not_until.wait_time_from(DefaultClock::default().now());
        let retry_after_secs = wait.as_secs() + 1;
        Err(ApiError::RateLimited {
            retry_after_secs,
            message: format!(
                "too many {} from your address: at most {}; try again in {retry_after_secs} s",
                ask.words(),
                self.rates.rate(ask).shown()
            ),
        })
    }

    /// Forgets addresses whose limits are back to full (called by the rooms' sweep).
    pub fn forget_idle(&self) {
        for limiter in &self.limiters {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(last: u8) -> Client {
        Client(Some(IpAddr::from([10, 0, 0, last])))
    }

    #[test]
    fn each_kind_and_address_has_its_own_allowance() {
        let limits = AddressLimits::new(AddressRates {
            actions: Rate::per_minute(3),
            ..AddressRates::default()
        });
        for _ in 0..3 {
            limits.check(Ask::Act, client(1)).unwrap();
        }
        let refused = limits.check(Ask::Act, client(1)).unwrap_err();
        assert_eq!(refused.code(), "rate_limited");
        assert!(
            refused.message().contains("at most 3 a minute"),
            "{}",
            refused.message()
        );
        assert!((20..=21).contains(&refused.retry_after().unwrap()));
        // Another kind, another address, and in-process requests are not affected.
        limits.check(Ask::Read, client(1)).unwrap();
        limits.check(Ask::Act, client(2)).unwrap();
        limits.check(Ask::Act, Client(None)).unwrap();
    }

    #[test]
    fn rates_are_shown_in_words() {
        assert_eq!(Rate::per_hour(60).shown(), "60 an hour");
        assert_eq!(Rate::per_minute(5).shown(), "5 a minute");
    }
}
