-- Rooms, their two seats, their games and every move. Times are milliseconds since the Unix
-- epoch; every number is a BIGINT so that both databases read back the same types. The same
-- schema as ../sqlite/0001_rooms.sql: keep the two alike.

CREATE TABLE rooms (
    id                 TEXT PRIMARY KEY,
    rules              TEXT NOT NULL,       -- mnk-core's text form: 15x15x5, infx5, 15x15x5,renju
    clock_initial_ms   BIGINT,              -- Fischer clock, both NULL without a clock
    clock_increment_ms BIGINT,
    created_ms         BIGINT NOT NULL,
    seen_ms            BIGINT NOT NULL,     -- last sign of life: a change or a connected client
    closed_ms          BIGINT,              -- set when the room was closed for want of players
    version            BIGINT NOT NULL,     -- bumped by every change: optimistic concurrency
    game               BIGINT NOT NULL,    -- the current game's number, from 1
    offer              TEXT                 -- 'draw:0', 'rematch:1': what a seat offered
);

CREATE TABLE seats (
    room       TEXT NOT NULL REFERENCES rooms (id),
    seat       BIGINT NOT NULL CHECK (seat IN (0, 1)),  -- 0 is the creator's
    token_hash TEXT,                                      -- SHA-256 of the seat's token, hex
    bot        TEXT,                                      -- or the bot that sits there
    taken_ms   BIGINT,
    PRIMARY KEY (room, seat)
);

CREATE TABLE games (
    room        TEXT NOT NULL REFERENCES rooms (id),
    number      BIGINT NOT NULL,
    x_seat      BIGINT NOT NULL CHECK (x_seat IN (0, 1)),  -- who plays X in this game
    started_ms  BIGINT,                                       -- both seats taken: clocks run
    result      TEXT,                                         -- 'X', 'O' or 'draw'
    reason      TEXT,                                         -- line, full, no_line_left, resigned, agreed, time
    finished_ms BIGINT,
    PRIMARY KEY (room, number)
);

-- A move exists once, at its ply: a move is acknowledged only after this row is committed.
CREATE TABLE moves (
    room      TEXT NOT NULL REFERENCES rooms (id),
    game      BIGINT NOT NULL,
    ply       BIGINT NOT NULL,
    cell      TEXT NOT NULL,
    played_ms BIGINT NOT NULL,
    clock_ms  BIGINT,           -- the mover's time left after the move and its increment
    PRIMARY KEY (room, game, ply)
);

CREATE INDEX rooms_open_by_seen ON rooms (seen_ms) WHERE closed_ms IS NULL;
