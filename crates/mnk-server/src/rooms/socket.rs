//! A room's WebSocket: the room's state pushed after every change, and the same actions as the
//! HTTP endpoints sent as JSON messages ([`ClientMessage`], answered with [`ServerMessage`]).
//!
//! The socket outlives the HTTP connection it was upgraded from, so it keeps its own limits:
//! messages of at most [`MAX_MESSAGE`] bytes (larger ones up to [`MAX_WIRE`] are refused with
//! `too_large`, beyond that the socket is closed with 1009), [`MESSAGES_PER_SECOND`] a socket, a
//! ping every [`PING_EVERY`] and closing when nothing was heard for [`SILENCE`], at most
//! [`super::RoomConfig::max_sockets`] at once, and closing with 1001 when the server shuts down.
//!
//! A session never waits for a send: a writer task sends what the session queues in the
//! socket's [`Outbox`], so hearing the client, the room's changes and the silence timer go on
//! whatever the client reads. A slow reader gets the latest state rather than every one; a
//! client whose unread answers pile up is closed with [`NOT_READING`] (1008); a client that reads
//! nothing stalls the writer until the connection's write timeout gives it up
//! ([`crate::stalls`]), and the session ends with it.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use governor::{DefaultDirectRateLimiter, Quota};
use tokio::sync::broadcast::error::RecvError;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::limits::Ask;
use super::outbox::{Kind, Outbox, Overflow, NOT_READING};
use super::reading::colour_of;
use super::referee::Action;
use super::view::{ClientMessage, ServerMessage};
use super::{closed, Rooms};
use crate::clients::Client;
use crate::error::ApiError;
use crate::log::Throttled;

/// The largest message a client may send.
pub const MAX_MESSAGE: usize = 4 * 1024;
/// The largest message read at all; past it the socket is closed.
pub const MAX_WIRE: usize = 64 * 1024;
/// Messages a client may send per second (twice as many at once after a pause).
pub const MESSAGES_PER_SECOND: u32 = 20;
/// How often the server pings.
pub const PING_EVERY: Duration = Duration::from_secs(30);
/// How long the server waits without hearing anything (a pong counts) before closing.
pub const SILENCE: Duration = Duration::from_secs(75);
/// How long a closing socket's last frame may take to go out.
const CLOSE_GRACE: Duration = Duration::from_secs(1);

/// `GET /api/rooms/ID/socket`: the room must exist, and a socket be free.
pub async fn upgrade(
    State(rooms): State<Arc<Rooms>>,
    client: Client,
    Path(id): Path<String>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let ws = ws.map_err(|e| {
        ApiError::BadRequest(format!(
            "this is a room's WebSocket: open it with a WebSocket client ({})",
            e.body_text()
        ))
    })?;
    rooms.limits.check(Ask::Read, client)?;
    rooms.load(&id).await?;
    let permit = rooms.sockets.clone().try_acquire_owned().map_err(|_| {
        static FULL: Throttled = Throttled::new(Duration::from_secs(10));
        FULL.warn(|| {
            format!(
                "every room socket is taken ({}): refusing sockets",
                rooms.config.max_sockets
            )
        });
        ApiError::Busy {
            retry_after_secs: 5,
        }
    })?;
    // Small buffers: thousands of sockets mostly idle, each message a few hundred bytes (the
    // defaults of 128 KiB each made 2,000 sockets cost some 300 MB).
    Ok(ws
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_message_size(MAX_WIRE)
        .max_frame_size(MAX_WIRE)
        .on_upgrade(move |socket| async move {
            let _permit = permit;
            Session::new(rooms, id, client).run(socket).await;
        }))
}

/// One client's socket on one room.
struct Session {
    rooms: Arc<Rooms>,
    room: String,
    /// The client's address, for the per-address limits.
    client: Client,
    /// The seat the client said hello for, if any.
    seat: Option<usize>,
    /// The token it said hello with: actions are the seat's only while it holds the seat.
    token: Option<String>,
    rate: DefaultDirectRateLimiter,
}

/// What to answer a message with, if anything.
type Next = Option<ServerMessage>;

impl Session {
    fn new(rooms: Arc<Rooms>, room: String, client: Client) -> Session {
        let per_second = NonZeroU32::new(MESSAGES_PER_SECOND).expect("positive");
        let burst = NonZeroU32::new(MESSAGES_PER_SECOND * 2).expect("positive");
        Session {
            rooms,
            room,
            client,
            seat: None,
            token: None,
            rate: governor::RateLimiter::direct(Quota::per_second(per_second).allow_burst(burst)),
        }
    }

    async fn run(mut self, socket: WebSocket) {
        self.talk(socket).await;
        // However the socket ended, its seat has one connection fewer.
        if let Some(seat) = self.seat {
            self.rooms.socket_seated(&self.room, seat, false);
        }
    }

    async fn talk(&mut self, socket: WebSocket) {
        let (sink, mut stream) = socket.split();
        let outbox = Arc::new(Outbox::default());
        let mut writer = tokio::spawn(write_out(sink, outbox.clone()));
        if let Ended::Close(frame) = self.converse(&mut stream, &outbox, &mut writer).await {
            outbox.close(frame);
            // The frame goes out unless the writer is stalled; then the connection is reset.
            let _ = tokio::time::timeout(CLOSE_GRACE, &mut writer).await;
        }
        writer.abort();
    }

    /// Hears the client, the room and the timers until the socket is to end. Never waits for a
    /// send: messages go to `outbox`, which the writer task empties.
    async fn converse(
        &mut self,
        stream: &mut SplitStream<WebSocket>,
        outbox: &Outbox,
        writer: &mut JoinHandle<()>,
    ) -> Ended {
        let mut pushes = self.rooms.hub.subscribe(&self.room);
        let mut closing = self.rooms.closing.subscribe();
        if self.queue_state(outbox).await.is_err() {
            return not_reading();
        }
        let mut pings = tokio::time::interval_at(Instant::now() + PING_EVERY, PING_EVERY);
        let mut heard = Instant::now();
        loop {
            let queued = tokio::select! {
                incoming = stream.next() => {
                    heard = Instant::now();
                    let next = match incoming {
                        Some(Ok(Message::Text(text))) => self.handle(text.as_str()).await,
                        Some(Ok(Message::Binary(_))) => Some(refusal(&ApiError::Api(mnk_api::ApiError::BadJson(
                            "send text messages of JSON, such as {\"type\": \"ping\"}".into(),
                        )))),
                        Some(Ok(Message::Close(_))) | None => return Ended::Gone,
                        Some(Ok(_)) => None,
                        Some(Err(e)) => return Ended::Close(close_for(&e)),
                    };
                    match next {
                        Some(message) => outbox.push(Kind::Reply, Message::Text(message.text().into())),
                        None => Ok(()),
                    }
                }
                push = pushes.recv() => match push {
                    Ok(push) => {
                        let kind = if push.state { Kind::State } else { Kind::Presence };
                        outbox.push(kind, Message::Text(push.text.as_ref().into()))
                    }
                    // Fell behind: the whole state now replaces what was missed.
                    Err(RecvError::Lagged(_)) => self.queue_state(outbox).await,
                    Err(RecvError::Closed) => return Ended::Gone,
                },
                _ = pings.tick() => {
                    // Checked here, whatever the writer is doing: a client that neither reads
                    // nor answers is let go even while a send to it waits.
                    if heard.elapsed() > SILENCE {
                        return Ended::Gone;
                    }
                    outbox.push(Kind::Ping, Message::Ping(Default::default()))
                }
                () = closed(&mut closing) => {
                    return Ended::Close(CloseFrame {
                        code: 1001,
                        reason: "the server is restarting: connect again".into(),
                    });
                }
                // The writer ended: the client is gone, or read nothing for the write timeout.
                _ = &mut *writer => return Ended::Gone,
            };
            if queued.is_err() {
                return not_reading();
            }
        }
    }

    /// Queues the room as it is now.
    async fn queue_state(&self, outbox: &Outbox) -> Result<(), Overflow> {
        let (kind, message) = match self.rooms.current(&self.room).await {
            Ok(snap) => {
                // Watched from now on: the running clock's flag falls live for this socket too.
                self.rooms.arm_flag(&snap);
                match self.rooms.view(&snap) {
                    Ok(state) => (
                        Kind::State,
                        ServerMessage::State {
                            state: Box::new(state),
                        },
                    ),
                    Err(e) => (Kind::Reply, refusal(&e)),
                }
            }
            Err(e) => (Kind::Reply, refusal(&e)),
        };
        outbox.push(kind, Message::Text(message.text().into()))
    }

    /// Answers one text message.
    async fn handle(&mut self, text: &str) -> Next {
        if self.rate.check().is_err() {
            return Some(refusal(&ApiError::RateLimited {
                retry_after_secs: 1,
                message: format!("at most {MESSAGES_PER_SECOND} messages a second"),
            }));
        }
        if text.len() > MAX_MESSAGE {
            return Some(refusal(&ApiError::Api(mnk_api::ApiError::TooLarge(
                format!("a message may have at most {MAX_MESSAGE} bytes"),
            ))));
        }
        let message: ClientMessage = match serde_json::from_str(text) {
            Ok(message) => message,
            Err(e) => {
                return Some(refusal(&ApiError::Api(mnk_api::ApiError::BadJson(
                    format!("not a message this socket takes: {e}"),
                ))))
            }
        };
        let action = match message {
            ClientMessage::Ping => return Some(ServerMessage::Pong),
            ClientMessage::Hello { token } => {
                if let Err(e) = self.rooms.limits.check(Ask::Read, self.client) {
                    return Some(refusal(&e));
                }
                return Some(self.hello(&token).await);
            }
            ClientMessage::Move { ply, cell } => Action::Move { ply, cell },
            ClientMessage::Decide { ply, decision } => Action::Decide { ply, decision },
            ClientMessage::Resign => Action::Resign,
            ClientMessage::Draw => Action::Draw,
            ClientMessage::Rematch => Action::Rematch,
            ClientMessage::Claim { bot } => return self.claim(bot.as_ref()).await,
        };
        let token = match self.seated() {
            Ok(token) => token,
            Err(refused) => return Some(refused),
        };
        let acted = self.rooms.act_for(&self.room, &token, &action).await;
        self.answer(acted)
    }

    /// The token of a socket seated by its hello, once the address's allowance of actions
    /// admits one more; else the refusal to send.
    fn seated(&self) -> Result<String, ServerMessage> {
        let Some(token) = self.token.clone() else {
            return Err(refusal(&ApiError::BadToken(
                "say hello with your seat's token first: spectators cannot play".into(),
            )));
        };
        self.rooms
            .limits
            .check(Ask::Act, self.client)
            .map_err(|e| refusal(&e))?;
        Ok(token)
    }

    /// `claim`: the game the opponent left, won or (with `bot`) handed to a bot.
    async fn claim(&mut self, bot: Option<&serde_json::Value>) -> Next {
        let token = match self.seated() {
            Ok(token) => token,
            Err(refused) => return Some(refused),
        };
        let bot = match bot.map(mnk_api::play::parse_opponent).transpose() {
            Ok(bot) => bot,
            Err(e) => return Some(refusal(&ApiError::from(e))),
        };
        let claimed = self.rooms.claim(&self.room, &token, bot.as_ref()).await;
        self.answer(claimed)
    }

    /// What to answer an action with: nothing when it was taken (the new state reaches every
    /// watcher, this socket included), else the refusal. A token that no longer holds its seat
    /// (handed to a bot while its player was away) leaves the socket a spectator.
    fn answer(&mut self, done: Result<super::store::Snapshot, ApiError>) -> Next {
        match done {
            Ok(_) => None,
            Err(e) => {
                if e.code() == "bad_token" {
                    if let Some(seat) = self.seat.take() {
                        self.rooms.socket_seated(&self.room, seat, false);
                    }
                    self.token = None;
                }
                Some(refusal(&e))
            }
        }
    }

    /// Seats the socket with a token (a bad one leaves it a spectator).
    async fn hello(&mut self, token: &str) -> ServerMessage {
        if token.len() > 256 {
            return refusal(&ApiError::BadToken(
                "this token holds no seat in this room".into(),
            ));
        }
        match self.rooms.join(&self.room, Some(token)).await {
            Ok((snap, Some((seat, _)))) => {
                if self.seat != Some(seat) {
                    if let Some(old) = self.seat {
                        self.rooms.socket_seated(&self.room, old, false);
                    }
                    self.seat = Some(seat);
                    self.rooms.socket_seated(&self.room, seat, true);
                }
                self.token = Some(token.to_string());
                ServerMessage::Welcome {
                    seat: Some(seat),
                    colour: Some(colour_of(&snap, seat)),
                }
            }
            Ok((_, None)) => ServerMessage::Welcome {
                seat: None,
                colour: None,
            },
            Err(e) => refusal(&e),
        }
    }
}

/// How a session ends.
enum Ended {
    /// Nothing to send: the client left, fell silent, or the writer gave up on it.
    Gone,
    /// With this close frame, sent if the client still reads.
    Close(CloseFrame),
}

/// The end of a client whose messages pile up unread.
fn not_reading() -> Ended {
    Ended::Close(CloseFrame {
        code: NOT_READING,
        reason: "messages were piling up unread: read them, or connect again".into(),
    })
}

/// The writer task: sends what `outbox` gives, in order, until the close frame or an error (the
/// client gone, or the connection's write timeout passed without progress).
async fn write_out(mut sink: SplitSink<WebSocket, Message>, outbox: Arc<Outbox>) {
    while let Some(message) = outbox.next().await {
        let last = matches!(message, Message::Close(_));
        if sink.send(message).await.is_err() || last {
            return;
        }
    }
}

fn refusal(error: &ApiError) -> ServerMessage {
    ServerMessage::error(error)
}

/// The close frame for a socket that failed: 1009 for a message over [`MAX_WIRE`], else 1002.
fn close_for(error: &axum::Error) -> CloseFrame {
    let text = error.to_string();
    let (code, reason) = if text.contains("limit") || text.contains("too long") {
        (1009, format!("messages are at most {MAX_MESSAGE} bytes"))
    } else {
        (1002, "not a WebSocket message".to_string())
    };
    CloseFrame {
        code,
        reason: reason.into(),
    }
}
