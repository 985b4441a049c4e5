-- The archive: who played each finished game, ratings per preset, claimed names.
CREATE TABLE game_players (
    table_id     TEXT NOT NULL REFERENCES tables (id),
    seat         INTEGER NOT NULL,
    name         TEXT NOT NULL,
    kind         TEXT NOT NULL,            -- person | bot
    strategy     TEXT,
    taken_over   BOOLEAN NOT NULL DEFAULT FALSE,
    token_digest TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX game_players_name ON game_players (name);
CREATE TABLE ratings (
    preset TEXT NOT NULL,
    name   TEXT NOT NULL,
    mu     DOUBLE PRECISION NOT NULL,
    sigma  DOUBLE PRECISION NOT NULL,
    games  INTEGER NOT NULL DEFAULT 0,
    wins   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (preset, name)
);
CREATE TABLE accounts (
    name       TEXT PRIMARY KEY,
    salt       BYTEA NOT NULL,
    hash       BYTEA NOT NULL,             -- scrypt(password, salt, n, r, p)
    n          INTEGER NOT NULL,
    r          INTEGER NOT NULL,
    p          INTEGER NOT NULL,
    created_at DOUBLE PRECISION NOT NULL
);
CREATE UNIQUE INDEX accounts_name_any_case ON accounts (lower(name));
