-- Swap openings in rooms: the kind a room's games open with (chosen when the room is created)
-- and the decisions each game's opening has made so far. Rooms made before keep opening freely.
-- The same as ../postgres/0002_openings.sql: keep the two alike.

ALTER TABLE rooms ADD COLUMN opening TEXT NOT NULL DEFAULT 'free';  -- free, swap or swap2
ALTER TABLE games ADD COLUMN decisions TEXT NOT NULL DEFAULT '';    -- 'place-two,black': in order
