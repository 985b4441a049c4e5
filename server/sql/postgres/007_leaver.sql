-- An abandoned game's leaver: the seat whose person left the game (or did not come back in
-- time); empty for the games ended before it was kept, and for every other ending.
ALTER TABLE tables ADD COLUMN leaver INTEGER;
