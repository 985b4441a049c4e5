-- Each tournament's events, in order: its state is their fold (server/tournament/).
CREATE TABLE tournament_events (
    tournament_id TEXT NOT NULL,
    seq           INTEGER NOT NULL,
    kind          TEXT NOT NULL,
    data          TEXT NOT NULL,
    PRIMARY KEY (tournament_id, seq)
);
