-- The journal: tables, their seats and the actions of running games.
CREATE TABLE tables (
    id          TEXT PRIMARY KEY,
    num         BIGINT NOT NULL,           -- the id as a number (0 if not numeric)
    rules       TEXT NOT NULL,             -- RuleSet JSON
    seed        BIGINT NOT NULL,           -- < 2**63
    private     BOOLEAN NOT NULL DEFAULT FALSE,
    options     TEXT NOT NULL DEFAULT '{}',
    status      TEXT NOT NULL DEFAULT 'waiting',  -- waiting | playing | finished | closed | damaged
    created_at  DOUBLE PRECISION NOT NULL,
    finished_at DOUBLE PRECISION,
    winner      INTEGER,
    totals      TEXT,                      -- JSON list
    reason      TEXT,                      -- how it ended (damaged: why it cannot be restored)
    record      BYTEA                      -- a finished table's actions, compacted (zlib JSON)
);
CREATE INDEX tables_status ON tables (status);
CREATE TABLE seats (
    table_id     TEXT NOT NULL REFERENCES tables (id),
    seat         INTEGER NOT NULL,
    name         TEXT NOT NULL,
    token_digest TEXT,                     -- sha256 hex of the seat token, never the token
    bot          TEXT,                     -- strategy of a built-in bot
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE actions (
    table_id TEXT NOT NULL REFERENCES tables (id),
    idx      INTEGER NOT NULL,
    action   TEXT NOT NULL,                -- encode_action()
    PRIMARY KEY (table_id, idx)
);
