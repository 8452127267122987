-- Clocks in swap openings: when the current game's last opening decision was made and the
-- time its maker had left after it (with the increment, if the decision ended that seat's
-- turn). A decision runs the deciding seat's clock as a move does; only the last one is kept,
-- because an earlier one (swap2's place-two) is always followed by its maker's own stones,
-- whose stored clocks supersede it. NULL in games decided before.
-- The same as ../sqlite/0003_opening_clocks.sql: keep the two alike.

ALTER TABLE games ADD COLUMN decided_ms BIGINT;
ALTER TABLE games ADD COLUMN decided_clock_ms BIGINT;
