//! Rooms: two people (or a person and a bot) playing one game from two devices, spectators
//! watching, the game stored so that neither a reload nor a server killed mid-game loses it.
//!
//! The one stateful part of the server, beside the stateless API. Its layers:
//! - [`store`]: the database (SQLite by default, PostgreSQL for several servers). Every change is
//!   one transaction conditional on the room's version, so changes decided on stale readings,
//!   here or on another server, are refused and decided again.
//! - [`reading`]: what a snapshot says (the position, who plays which colour, the clocks),
//!   read by both the referee and the view.
//! - [`referee`]: pure decisions: from a room as read and what a seat asks, the steps to store or
//!   the refusal. mnk-core judges every move.
//! - [`Rooms`] (here): read, decide, store, then tell the watchers ([`hub`]) and let a bot
//!   move if one is due. A move is acknowledged only after its transaction has committed.
//! - [`view`]: what clients see of a room, and the messages of its socket.
//! - [`presence`]: which seats have a live connection, told to the room as it changes.
//! - [`limits`]: what one address may ask, per kind, checked before anything is read.
//! - [`http`] and [`socket`]: the JSON endpoints and the WebSocket, two doors to the same
//!   actions; `GET /api/rooms/ID?after=V` is the long-poll fallback for clients without sockets.
//!   [`outbox`]: what a socket has still to send, bounded however slowly its client reads.
//!
//! Seats are held by tokens (random, kept by the browser; the database keeps their SHA-256).
//! Room ids are random too: knowing one lets a person watch, not play.

pub mod bot_clock;
pub mod http;
pub mod hub;
pub mod ids;
pub mod limits;
pub mod outbox;
pub mod presence;
pub mod reading;
pub mod referee;
pub mod socket;
pub mod store;
pub mod view;

use serde_json::json;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mnk_core::Step;
use mnk_engine::roster::{self, BotSpec};
use mnk_engine::search::EngineConfig;
use mnk_engine::{Deadline, Limits};
use tokio::sync::{watch, Semaphore};

use crate::clients::Client;
use crate::error::ApiError;
use crate::pool::EnginePool;
use hub::{Hub, Push};
use limits::{AddressLimits, AddressRates, Ask};
use mnk_api::opening::Part;
use presence::{Change, Presence, Seats};
use referee::{Absence, Action, Claim};
use store::{Applied, Op, Snapshot, Store, StoreError};
use view::{state_view, RoomView, SeatedReply, ServerMessage};

/// Settings of the rooms.
#[derive(Clone, Debug)]
pub struct RoomConfig {
    /// What one address may ask of the rooms: creations, joins, actions, reads.
    pub per_address: AddressRates,
    /// How long a room may go without a change or a connected client before it is closed.
    pub idle: Duration,
    /// How often idle rooms are looked for (and rooms with clients marked as seen).
    pub sweep_every: Duration,
    /// WebSockets open at once on this server.
    pub max_sockets: usize,
    /// How long a bot thinks over a move.
    pub bot_think: Duration,
    /// How long a bot whose own limits end its search (the perfect player's proof, the caps
    /// of levels 4 and 5) may take over a move, as `/api/move` allows it: a guard, not a plan.
    pub bot_guard: Duration,
    /// How long one wait on the database may take (a connection, a statement, a lock), and
    /// opening it at start-up: past it a request is answered `unavailable`.
    pub database_timeout: Duration,
    /// In a game without a clock, how long a player must have been away (no live connection)
    /// before the opponent may claim the game: the win, or the seat for a bot.
    pub claim_after: Duration,
}

impl Default for RoomConfig {
    fn default() -> RoomConfig {
        RoomConfig {
            per_address: AddressRates::default(),
            idle: Duration::from_secs(60 * 60),
            sweep_every: Duration::from_secs(60),
            max_sockets: 16_384,
            bot_think: Duration::from_millis(1000),
            bot_guard: Duration::from_secs(10),
            database_timeout: store::DATABASE_TIMEOUT,
            claim_after: CLAIM_AFTER,
        }
    }
}

/// How long a player of a game without a clock must be away before the opponent may claim the
/// game, unless told: a minute, long enough for a reload, a lost connection on a train or a
/// phone's browser put to sleep to come back, short enough that nobody waits for good.
pub const CLAIM_AFTER: Duration = Duration::from_secs(60);

/// The rooms of this server: the store, the watchers, the limits.
#[derive(Debug)]
pub struct Rooms {
    store: Store,
    hub: Hub,
    config: RoomConfig,
    /// The per-address limits; handlers check them before anything is read.
    pub limits: AddressLimits,
    sockets: Arc<Semaphore>,
    pool: Arc<EnginePool>,
    /// Which seats have a live connection.
    presence: Presence,
    /// This server's id in presence reports to other servers.
    server: String,
    /// Rooms whose bot is thinking or storing its move on this server (one at a time per
    /// room), each with whether a wake came for it meanwhile.
    thinking: Mutex<HashMap<String, bool>>,
    /// Rooms with a timer for their running clock's flag, and the version it was armed at.
    flags: Mutex<HashMap<String, i64>>,
    /// Raised when the server shuts down: sockets close, background tasks end.
    closing: watch::Sender<bool>,
    /// The last answer of the readiness probe and when it was found, shared by the probes of a
    /// short while so that a flood of them does not reach the database.
    readiness: tokio::sync::Mutex<Option<(tokio::time::Instant, Result<(), ApiError>)>>,
}

/// Milliseconds since the Unix epoch: the time of every stored event.
#[must_use]
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        if error.is_permanent() {
            return ApiError::DatabaseDamaged(format!(
                "the rooms' database is damaged ({error}): retrying will not help until the \
                 server's operator restores it"
            ));
        }
        match error {
            StoreError::Database(_) | StoreError::Unreachable { .. } => {
                ApiError::Unavailable(error.to_string())
            }
            _ => ApiError::internal(error.to_string()),
        }
    }
}

/// How long a readiness answer is reused.
const READINESS_FRESH: Duration = Duration::from_secs(1);

/// How many times a change decided on a stale reading is decided again before giving up.
const CHANGE_ATTEMPTS: usize = 8;

impl Rooms {
    /// Opens the database at `url` (see [`Store::open`]) and starts the background work: closing
    /// idle rooms, and with PostgreSQL, hearing other servers' changes.
    pub async fn open(
        url: &str,
        config: RoomConfig,
        pool: Arc<EnginePool>,
    ) -> Result<Arc<Rooms>, StoreError> {
        let store = Store::open(url, config.database_timeout).await?;
        let rooms = Arc::new(Rooms {
            store,
            hub: Hub::default(),
            limits: AddressLimits::new(config.per_address),
            sockets: Arc::new(Semaphore::new(config.max_sockets.max(1))),
            config,
            pool,
            presence: Presence::default(),
            server: ids::new_token()[..12].to_string(),
            thinking: Mutex::new(HashMap::new()),
            flags: Mutex::new(HashMap::new()),
            closing: watch::channel(false).0,
            readiness: tokio::sync::Mutex::new(None),
        });
        tokio::spawn(sweep(Arc::downgrade(&rooms), rooms.closing.subscribe()));
        tokio::spawn(keep_presence(
            Arc::downgrade(&rooms),
            rooms.closing.subscribe(),
        ));
        if let Store::Postgres(pg) = &rooms.store {
            let listener = listen(
                Arc::downgrade(&rooms),
                pg.clone(),
                rooms.closing.subscribe(),
            );
            tokio::spawn(listener);
        }
        Ok(rooms)
    }

    /// Shuts the rooms down: every socket is closed (clients reconnect, to this server once it
    /// is back or to another), background work ends.
    pub fn close(&self) {
        let _ = self.closing.send(true);
    }

    /// Whether the rooms can be served: the database answers (`unavailable` while it does not).
    /// An answer is reused for [`READINESS_FRESH`]; probes meanwhile wait for the one in flight.
    pub async fn ready(&self) -> Result<(), ApiError> {
        let mut last = self.readiness.lock().await;
        let now = tokio::time::Instant::now();
        if let Some((at, answer)) = last.as_ref() {
            if now.duration_since(*at) < READINESS_FRESH {
                return answer.clone();
            }
        }
        let answer = self
            .store
            .ping()
            .await
            .map_err(|e| match ApiError::from(e) {
                ApiError::Unavailable(m) => {
                    ApiError::Unavailable(format!("the rooms' database does not answer: {m}"))
                }
                other => other,
            });
        *last = Some((tokio::time::Instant::now(), answer.clone()));
        answer
    }

    /// Reads room `id`: `unknown_room` if there is none (or `id` cannot be one).
    pub async fn load(&self, id: &str) -> Result<Snapshot, ApiError> {
        if !ids::is_room_id(id) {
            return Err(unknown_room(id));
        }
        self.store.load(id).await?.ok_or_else(|| unknown_room(id))
    }

    /// Reads game `number` of room `id` (`unknown_room` when there is no such game).
    pub async fn load_game(&self, id: &str, number: i64) -> Result<Snapshot, ApiError> {
        if !ids::is_room_id(id) {
            return Err(unknown_room(id));
        }
        self.store.load_game(id, number).await?.ok_or_else(|| {
            ApiError::UnknownRoom(format!("room {id} has no game {number}"))
                .worded("no_game", json!({ "id": id, "number": number }))
        })
    }

    /// Reads room `id`, first ending its game on time if a flag has fallen (so that every
    /// reader sees the loss, and no move comes after it).
    pub async fn current(self: &Arc<Self>, id: &str) -> Result<Snapshot, ApiError> {
        self.change(id, |_, _| Ok(Vec::new())).await
    }

    /// The core of every change: read the room, let `decide` say what to do, store it if nobody
    /// changed the room meanwhile (else read and decide again), then tell the watchers.
    async fn change<F>(self: &Arc<Self>, id: &str, mut decide: F) -> Result<Snapshot, ApiError>
    where
        F: FnMut(&Snapshot, i64) -> Result<Vec<Op>, ApiError>,
    {
        for _ in 0..CHANGE_ATTEMPTS {
            let snap = self.load(id).await?;
            let now = now_ms();
            let game = reading::game(&snap)?;
            if let Some(flag) = referee::flag_fall(&snap, &game, now) {
                // The flag fell first: store that, then decide on the game as it ended (which
                // refuses a move with `game_over`).
                if let Applied::Done(_) =
                    self.store.apply(id, snap.room.version, now, &flag).await?
                {
                    self.after_change(&self.load(id).await?);
                }
                continue;
            }
            let ops = decide(&snap, now)?;
            if ops.is_empty() {
                // Nothing changes; a bot left due by a restart starts thinking again.
                self.wake_bot(&snap);
                return Ok(snap);
            }
            if let Applied::Done(_) = self.store.apply(id, snap.room.version, now, &ops).await? {
                let fresh = self.load(id).await?;
                self.after_change(&fresh);
                return Ok(fresh);
            }
        }
        Err(ApiError::Unavailable(
            "the room kept changing while this request was decided: try again".into(),
        ))
    }

    /// What follows a change: the watchers told, a bot set thinking if it is due, the fall of
    /// the running clock's flag awaited.
    fn after_change(self: &Arc<Self>, snap: &Snapshot) {
        self.publish(snap);
        self.wake_bot(snap);
        self.arm_flag(snap);
    }

    /// With a clock running and watchers here: reads the room again when the flag would fall,
    /// so that the loss on time is stored and shown without waiting for anyone to act. Armed
    /// after every change, and when a room starts being watched here (a socket, a long poll, a
    /// change heard from another server): a watcher that comes after the last change sees the
    /// flag fall too. One timer per room and version.
    fn arm_flag(self: &Arc<Self>, snap: &Snapshot) {
        if self.hub.watched(&snap.room.id).is_none() {
            return;
        }
        let Ok(game) = reading::game(snap) else {
            return;
        };
        let Some((left, Some(seat))) = reading::seat_clocks(snap, &game, now_ms()) else {
            return;
        };
        let (rooms, id, version) = (
            Arc::downgrade(self),
            snap.room.id.clone(),
            snap.room.version,
        );
        {
            let mut flags = self.lock_flags();
            if flags.get(&id).is_some_and(|&armed| armed >= version) {
                return;
            }
            flags.insert(id.clone(), version);
        }
        let wait = Duration::from_millis(left[seat].max(0) as u64 + 20);
        let mut closing = self.closing.subscribe();
        tokio::spawn(async move {
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                () = closed(&mut closing) => return,
            }
            let Some(rooms) = rooms.upgrade() else {
                return;
            };
            {
                let mut flags = rooms.lock_flags();
                // Changed meanwhile: that change armed its own timer.
                if flags.get(&id) != Some(&version) {
                    return;
                }
                flags.remove(&id);
            }
            if rooms.hub.watched(&id).is_some() {
                // Not fallen yet (the wall clock and the timer's disagree by a little): again.
                if let Ok(snap) = rooms.current(&id).await {
                    rooms.arm_flag(&snap);
                }
            }
        });
    }

    fn lock_flags(&self) -> std::sync::MutexGuard<'_, HashMap<String, i64>> {
        self.flags
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Sends the room's state to its watchers on this server.
    fn publish(&self, snap: &Snapshot) {
        if self.hub.watched(&snap.room.id).is_none() {
            return;
        }
        if let Ok(state) = self.view(snap) {
            let text = ServerMessage::State {
                state: Box::new(state),
            }
            .text();
            self.hub.publish(
                &snap.room.id,
                Push {
                    version: snap.room.version,
                    text: Arc::from(text),
                    state: true,
                },
            );
        }
    }

    /// The room as clients see it now, with who is here, how long a seat has been away, and
    /// after how long a game without a clock may be claimed.
    pub fn view(&self, snap: &Snapshot) -> Result<RoomView, ApiError> {
        let mut view = state_view(snap, now_ms())?;
        let away = self
            .presence
            .away(&snap.room.id, tokio::time::Instant::now());
        for (seat, away) in view.seats.iter_mut().zip(away) {
            seat.here = Some(away.is_none());
            // Only a person leaves: a bot and a free seat have no absence to count.
            let person = snap.seats[seat.seat].token_hash.is_some();
            seat.away_ms = away.filter(|_| person).map(|d| d.as_millis() as u64);
        }
        if snap.room.clock.is_none() {
            view.claim_after_ms = Some(self.config.claim_after.as_millis() as u64);
        }
        Ok(view)
    }

    /// The reply to a client seated in `seat` (or a spectator), with who is here.
    pub fn seated(
        &self,
        snap: &Snapshot,
        seat: Option<usize>,
        token: Option<String>,
    ) -> Result<SeatedReply, ApiError> {
        let mut reply = view::seated(snap, seat, token, now_ms())?;
        reply.state = self.view(snap)?;
        Ok(reply)
    }

    /// Tells what a presence change asks for: the room's watchers here, the other servers.
    fn presence_changed(self: &Arc<Self>, room: &str, change: Change) {
        if let Some(here) = change.show {
            let text = ServerMessage::Presence { here }.text();
            self.hub.announce(room, &text);
        }
        if let Some(seats) = change.report {
            if self.store.is_shared() {
                let rooms = self.clone();
                let payload = presence_payload(room, &self.server, seats);
                tokio::spawn(async move {
                    if let Err(e) = rooms.store.notify(&payload).await {
                        tracing::warn!("could not tell the other servers who is here: {e}");
                    }
                });
            }
        }
    }

    /// A socket seated in `seat` of room `id` opened (`true`) or closed.
    pub fn socket_seated(self: &Arc<Self>, id: &str, seat: usize, open: bool) {
        let now = tokio::time::Instant::now();
        let change = if open {
            self.presence.socket_opened(id, seat, now)
        } else {
            self.presence.socket_closed(id, seat, now)
        };
        self.presence_changed(id, change);
    }

    /// Starts the bot's move when it is a bot's turn (once per room on this server): a move,
    /// or in a swap opening its whole step (the stones it places, or its decision with the
    /// stones that go with it), thought in the engine pool and played through [`Rooms::act`].
    fn wake_bot(self: &Arc<Self>, snap: &Snapshot) {
        let Ok(game) = reading::game(snap) else {
            return;
        };
        let Some((seat, bot)) = view::bot_due(snap, &game) else {
            return;
        };
        let Ok(step) = game.step() else {
            return;
        };
        let room = snap.room.id.clone();
        match self.lock_thinking().entry(room.clone()) {
            Entry::Occupied(mut woken) => {
                woken.insert(true);
                return;
            }
            Entry::Vacant(thinking) => {
                thinking.insert(false);
            }
        }
        let slot = ThinkingSlot {
            rooms: self.clone(),
            room: Some(room.clone()),
        };
        let rooms = self.clone();
        let ply = game.pos.ply();
        let budget = self.bot_budget(snap, &game, seat, &bot);
        tokio::spawn(async move {
            let answer = match step {
                Step::Settled { .. } => rooms
                    .bot_move(&bot, game.pos, budget)
                    .await
                    .map(|cell| Action::Move { ply, cell }),
                Step::Place { .. } | Step::Choose { .. } => {
                    rooms.bot_opening(&bot, game.pos, step, budget).await
                }
            };
            let result = match answer {
                Ok(action) => rooms.act(&room, seat, &action).await,
                Err(e) => Err(e),
            };
            // Released only once the move is stored, so that a reader cannot start a second
            // thought for the turn just played; a wake that came meanwhile (the person's answer,
            // which can come before the release) is made good by looking at the room again.
            let woken = slot.release();
            // A stale ply means a person acted meanwhile (a resignation).
            if let Err(e) = result {
                if e.code() != "stale_ply" && e.code() != "game_over" {
                    tracing::warn!(%room, "the bot could not move: {e}");
                }
            }
            if woken {
                if let Ok(snap) = rooms.load(&room).await {
                    rooms.wake_bot(&snap);
                }
            }
        });
    }

    /// How long `bot`, in `seat`, may think now: its usual time (the guard for a bot whose own
    /// limits end its search), less when its clock is short.
    fn bot_budget(
        &self,
        snap: &Snapshot,
        game: &reading::Game,
        seat: usize,
        bot: &str,
    ) -> Duration {
        let bounded = bot
            .parse::<BotSpec>()
            .is_ok_and(BotSpec::bounds_its_own_search);
        let usual = if bounded {
            self.config.bot_guard
        } else {
            self.config.bot_think
        };
        let clock = snap.room.clock.and_then(|(_, increment)| {
            let (left, _) = reading::seat_clocks(snap, game, now_ms())?;
            Some((left[seat], increment))
        });
        bot_clock::bot_budget(usual, clock, game.pos.ply())
    }

    fn lock_thinking(&self) -> std::sync::MutexGuard<'_, HashMap<String, bool>> {
        self.thinking
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The bot's move in `pos`, thought for `budget` in the engine pool like any computer move.
    async fn bot_move(
        &self,
        bot: &str,
        pos: mnk_core::Position,
        budget: Duration,
    ) -> Result<String, ApiError> {
        let spec: BotSpec = bot.parse().map_err(ApiError::from)?;
        let seed = pos.hash();
        // The bot's clock runs from now: time spent waiting for a slot is its own.
        let deadline = Deadline::from_now(budget);
        self.pool
            .run(Client(None), move |stop| {
                let limits = Limits {
                    deadline: Some(deadline),
                    stop: Some(stop),
                    ..Limits::default()
                };
                let mut player = roster::create(&spec, pos.rules(), seed)?;
                let choice = player.choose(&pos, &limits)?;
                Ok(pos.rules().cell_name(choice.cell))
            })
            .await
    }

    /// The bot's part of a swap opening at `step` in `pos`, as the page's computer plays it
    /// (`POST /api/opening`): the opener's three stones, or a decision with its stones. Its
    /// searches share `budget`, the time of one move.
    async fn bot_opening(
        &self,
        bot: &str,
        pos: mnk_core::Position,
        step: Step,
        budget: Duration,
    ) -> Result<Action, ApiError> {
        let spec: BotSpec = bot.parse().map_err(ApiError::from)?;
        let seed = pos.hash();
        let ply = pos.ply();
        let part = self
            .pool
            .run(Client(None), move |stop| {
                let context = mnk_api::Context {
                    clock: Arc::new(mnk_engine::SystemClock::new()),
                    stop: Some(stop),
                };
                mnk_api::opening::computer_part(
                    &spec,
                    &pos,
                    step,
                    seed,
                    EngineConfig::default(),
                    budget,
                    &context,
                )
                .map(|part| (part, pos))
                .map_err(ApiError::from)
            })
            .await?;
        let (part, pos) = part;
        let names = |cells: &[mnk_core::Cell]| {
            cells
                .iter()
                .map(|&c| pos.rules().cell_name(c))
                .collect::<Vec<_>>()
        };
        Ok(match part {
            Part::Placed(stones) => Action::Step {
                ply,
                decision: None,
                stones: names(&stones),
            },
            Part::Decided(answer) => Action::Step {
                ply,
                decision: Some(answer.decision),
                stones: names(&answer.stones),
            },
        })
    }

    /// `action` by seat `seat` of room `id`.
    pub async fn act(
        self: &Arc<Self>,
        id: &str,
        seat: usize,
        action: &Action,
    ) -> Result<Snapshot, ApiError> {
        self.change(id, |snap, now| {
            referee::decide(snap, seat, action, now).map_err(|e| view::with_state(e, snap, now))
        })
        .await
    }

    /// `action` by the seat `token` holds in room `id` (`bad_token` if it holds none), the seat
    /// read with the room the action is decided on: a seat handed to a bot meanwhile is not
    /// the token's any more.
    pub async fn act_for(
        self: &Arc<Self>,
        id: &str,
        token: &str,
        action: &Action,
    ) -> Result<Snapshot, ApiError> {
        let hash = ids::token_hash(token);
        self.change(id, |snap, now| {
            let seat = reading::seat_of_token(snap, &hash).ok_or_else(bad_token)?;
            referee::decide(snap, seat, action, now).map_err(|e| view::with_state(e, snap, now))
        })
        .await
    }

    /// The seat `token` holds in room `id` claims the game its opponent left (see
    /// [`referee::claim`]): the win, or the opponent's seat for a bot (checked to play the
    /// room's rules), which then plays on. The opponent's absence is this server's count
    /// ([`Presence::away`]), against [`RoomConfig::claim_after`].
    pub async fn claim(
        self: &Arc<Self>,
        id: &str,
        token: &str,
        bot: Option<&BotSpec>,
    ) -> Result<Snapshot, ApiError> {
        let claim = match bot {
            Some(bot) => {
                let snap = self.load(id).await?;
                roster::check_rules(bot, &reading::game(&snap)?.rules).map_err(ApiError::from)?;
                Claim::Seat(bot.to_string())
            }
            None => Claim::Win,
        };
        let hash = ids::token_hash(token);
        let needed_ms = self.config.claim_after.as_millis() as i64;
        self.change(id, |snap, _| {
            let seat = reading::seat_of_token(snap, &hash).ok_or_else(bad_token)?;
            let away = self.presence.away(id, tokio::time::Instant::now())[1 - seat];
            let absence = Absence {
                away_ms: away.map(|d| d.as_millis() as i64),
                needed_ms,
            };
            referee::claim(snap, seat, &claim, absence)
        })
        .await
    }

    /// The seat a token holds in room `id`, or `bad_token`.
    pub async fn seat(self: &Arc<Self>, id: &str, token: &str) -> Result<usize, ApiError> {
        let snap = self.load(id).await?;
        reading::seat_of_token(&snap, &ids::token_hash(token)).ok_or_else(bad_token)
    }

    /// Stores a new room; answers it (with the creator in seat 0) once it is committed.
    pub async fn create(
        self: &Arc<Self>,
        client: Client,
        new: store::NewRoom,
    ) -> Result<Snapshot, ApiError> {
        self.limits.check(Ask::Create, client)?;
        self.store.create(&new, now_ms()).await?;
        let snap = self.load(&new.id).await?;
        self.wake_bot(&snap);
        Ok(snap)
    }

    /// Seats the holder of `token` (a returning player), or a newcomer in the free seat (with a
    /// new token), or no one (a spectator): `(seat, token)`.
    pub async fn join(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
    ) -> Result<(Snapshot, Option<(usize, String)>), ApiError> {
        if let Some(token) = token {
            let snap = self.current(id).await?;
            let seat =
                reading::seat_of_token(&snap, &ids::token_hash(token)).ok_or_else(bad_token)?;
            return Ok((snap, Some((seat, token.to_string()))));
        }
        let fresh = ids::new_token();
        let hash = ids::token_hash(&fresh);
        let mut seated = None;
        let snap = self
            .change(id, |snap, _| {
                seated = None;
                let Some((seat, ops)) = referee::take_free_seat(snap, Some(hash.clone()), None)
                else {
                    return Ok(Vec::new());
                };
                seated = Some(seat);
                Ok(ops)
            })
            .await?;
        Ok((snap, seated.map(|seat| (seat, fresh))))
    }

    /// Invites bot `bot` (checked to play the room's rules) to the free seat.
    pub async fn invite(self: &Arc<Self>, id: &str, bot: &BotSpec) -> Result<Snapshot, ApiError> {
        let snap = self.load(id).await?;
        let game = reading::game(&snap)?;
        roster::check_rules(bot, &game.rules).map_err(ApiError::from)?;
        let name = bot.to_string();
        self.change(id, |snap, _| {
            referee::take_free_seat(snap, None, Some(name.clone()))
                .map(|(_, ops)| ops)
                .ok_or_else(|| ApiError::SeatTaken("both seats are taken".into()))
        })
        .await
    }

    /// The room after version `after`: at once if it is newer, else when it changes or when
    /// `wait` is up (then as it is).
    /// A seat's long poll (`seat`) keeps the seat here while it waits, and for
    /// [`presence::POLL_GRACE`] after it ends.
    pub async fn after(
        self: &Arc<Self>,
        id: &str,
        after: i64,
        wait: Duration,
        seat: Option<usize>,
    ) -> Result<Snapshot, ApiError> {
        let mut watcher = self.hub.subscribe(id);
        let snap = self.current(id).await?;
        self.arm_flag(&snap);
        let _polling = seat.map(|seat| Polling::start(self, id, seat));
        if snap.room.version > after {
            return Ok(snap);
        }
        let deadline = tokio::time::Instant::now() + wait;
        let mut closing = self.closing.subscribe();
        loop {
            tokio::select! {
                push = watcher.recv() => match push {
                    Ok(push) if !push.state || push.version <= after => continue,
                    _ => break,
                },
                () = tokio::time::sleep_until(deadline) => break,
                () = closed(&mut closing) => break,
            }
        }
        self.load(id).await
    }
}

/// A seat's long poll while it waits: the seat counts as here. When it ends, answered or dropped
/// because its client left, the grace begins, and the room is looked at again the moment the
/// grace is over, so that "away" shows on time (not at the next tick of [`keep_presence`]).
struct Polling {
    rooms: Arc<Rooms>,
    room: String,
    seat: usize,
}

impl Polling {
    fn start(rooms: &Arc<Rooms>, room: &str, seat: usize) -> Polling {
        let change = rooms
            .presence
            .poll_started(room, seat, tokio::time::Instant::now());
        rooms.presence_changed(room, change);
        Polling {
            rooms: rooms.clone(),
            room: room.to_string(),
            seat,
        }
    }
}

impl Drop for Polling {
    fn drop(&mut self) {
        let ended = tokio::time::Instant::now();
        let change = self.rooms.presence.poll_ended(&self.room, self.seat, ended);
        // Dropped outside the runtime (it is shutting down): nobody is left to tell.
        if tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        self.rooms.presence_changed(&self.room, change);
        let (rooms, room) = (Arc::downgrade(&self.rooms), self.room.clone());
        tokio::spawn(async move {
            tokio::time::sleep_until(ended + presence::POLL_GRACE).await;
            if let Some(rooms) = rooms.upgrade() {
                let change = rooms.presence.look(&room, tokio::time::Instant::now());
                rooms.presence_changed(&room, change);
            }
        });
    }
}

/// Resolves once `closing` is raised (or its sender is gone).
pub(crate) async fn closed(closing: &mut watch::Receiver<bool>) {
    // The guard `wait_for` answers is dropped here, not held across a caller's awaits.
    let _ = closing.wait_for(|&c| c).await;
}

fn unknown_room(id: &str) -> ApiError {
    let shown: String = id.chars().take(32).collect();
    ApiError::UnknownRoom(format!("there is no room {shown:?}: check the link"))
        .worded("no_room", json!({ "id": shown }))
}

fn bad_token() -> ApiError {
    ApiError::BadToken("this token holds no seat in this room: you can watch, not play".into())
}

/// Every [`RoomConfig::sweep_every`]: marks the rooms watched here as seen, closes the rooms
/// nobody has been seen in for [`RoomConfig::idle`].
async fn sweep(rooms: std::sync::Weak<Rooms>, mut closing: watch::Receiver<bool>) {
    loop {
        let every = match rooms.upgrade() {
            Some(rooms) => rooms.config.sweep_every,
            None => return,
        };
        tokio::select! {
            () = tokio::time::sleep(every) => {}
            () = closed(&mut closing) => return,
        }
        let Some(rooms) = rooms.upgrade() else {
            return;
        };
        let now = now_ms();
        let watched = rooms.hub.sweep();
        rooms.limits.forget_idle();
        let cutoff = now - rooms.config.idle.as_millis() as i64;
        let done = async {
            rooms.store.touch(&watched, now).await?;
            rooms.store.close_idle(cutoff, now).await
        };
        match done.await {
            Ok(0) => {}
            Ok(closed) => tracing::info!(closed, "closed rooms without players"),
            Err(e) => tracing::warn!("sweeping rooms failed: {e}"),
        }
    }
}

/// How often other servers' stale reports (and, should a timer have missed one, long polls'
/// grace) are looked at.
const PRESENCE_TICK: Duration = Duration::from_secs(2);

/// `ID:here:SERVER:ab`: what server `SERVER` sees of room `ID` (`a`, `b`: 1 if a seat is here).
fn presence_payload(room: &str, server: &str, seats: Seats) -> String {
    let bit = |here: bool| if here { '1' } else { '0' };
    format!("{room}:here:{server}:{}{}", bit(seats[0]), bit(seats[1]))
}

/// Reads [`presence_payload`]'s `SERVER:ab` part.
fn read_presence(rest: &str) -> Option<(&str, Seats)> {
    let (server, bits) = rest.split_once(':')?;
    match bits.as_bytes() {
        [a @ (b'0' | b'1'), b @ (b'0' | b'1')] => Some((server, [*a == b'1', *b == b'1'])),
        _ => None,
    }
}

/// Ends long polls' grace and other servers' stale reports, telling the watchers; with
/// PostgreSQL repeats to the other servers every [`presence::REFRESH`] who is here.
async fn keep_presence(rooms: std::sync::Weak<Rooms>, mut closing: watch::Receiver<bool>) {
    let mut refreshed = tokio::time::Instant::now();
    loop {
        tokio::select! {
            () = tokio::time::sleep(PRESENCE_TICK) => {}
            () = closed(&mut closing) => return,
        }
        let Some(rooms) = rooms.upgrade() else {
            return;
        };
        for (room, change) in rooms.presence.expire(tokio::time::Instant::now()) {
            rooms.presence_changed(&room, change);
        }
        if rooms.store.is_shared() && refreshed.elapsed() >= presence::REFRESH {
            refreshed = tokio::time::Instant::now();
            for (room, seats) in rooms.presence.reports() {
                let payload = presence_payload(&room, &rooms.server, seats);
                if let Err(e) = rooms.store.notify(&payload).await {
                    tracing::warn!("could not tell the other servers who is here: {e}");
                    break;
                }
            }
        }
    }
}

/// With PostgreSQL: hears the changes other servers make and publishes them to this server's
/// watchers. A lost connection is re-established (changes missed meanwhile reach watchers with
/// the next change, or when they reconnect).
async fn listen(
    rooms: std::sync::Weak<Rooms>,
    pool: sqlx::PgPool,
    mut closing: watch::Receiver<bool>,
) {
    loop {
        let mut listener = match sqlx::postgres::PgListener::connect_with(&pool).await {
            Ok(listener) => listener,
            Err(e) => {
                tracing::warn!("cannot listen for other servers' changes: {e}");
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_secs(1)) => continue,
                    () = closed(&mut closing) => return,
                }
            }
        };
        if let Err(e) = listener.listen(store::NOTIFY_CHANNEL).await {
            tracing::warn!("cannot listen for other servers' changes: {e}");
            continue;
        }
        loop {
            let heard = tokio::select! {
                heard = listener.recv() => heard,
                () = closed(&mut closing) => return,
            };
            let Ok(notification) = heard else {
                break;
            };
            let Some(rooms) = rooms.upgrade() else {
                return;
            };
            let Some((room, version)) = notification.payload().split_once(':') else {
                continue;
            };
            if let Some(rest) = version.strip_prefix("here:") {
                if let Some((server, seats)) = read_presence(rest) {
                    if server != rooms.server {
                        let now = tokio::time::Instant::now();
                        let change = rooms.presence.heard(room, server, seats, now);
                        rooms.presence_changed(
                            room,
                            Change {
                                report: None,
                                ..change
                            },
                        );
                    }
                }
                continue;
            }
            let newer = version
                .parse::<i64>()
                .is_ok_and(|v| rooms.hub.watched(room).is_some_and(|sent| v > sent));
            if newer {
                let room = room.to_string();
                tokio::spawn(async move {
                    if let Ok(snap) = rooms.load(&room).await {
                        rooms.publish(&snap);
                        rooms.arm_flag(&snap);
                    }
                });
            }
        }
    }
}

/// A room's entry in [`Rooms::thinking`] while its bot thinks and stores its move; given back
/// when dropped too, so that a task that panics does not leave the room's bot asleep for good.
struct ThinkingSlot {
    rooms: Arc<Rooms>,
    /// `None` once given back.
    room: Option<String>,
}

impl ThinkingSlot {
    /// Gives the entry back: whether a wake came for the room meanwhile.
    fn release(mut self) -> bool {
        self.give_back()
    }

    fn give_back(&mut self) -> bool {
        self.room
            .take()
            .is_some_and(|room| self.rooms.lock_thinking().remove(&room).unwrap_or(false))
    }
}

impl Drop for ThinkingSlot {
    fn drop(&mut self) {
        self.give_back();
    }
}
