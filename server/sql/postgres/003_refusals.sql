-- Refused answers: what a seat sent for a turn that the table refused (the protocol's error code).
CREATE TABLE refusals (
    table_id TEXT NOT NULL REFERENCES tables (id),
    idx      INTEGER NOT NULL,             -- the action index the answer was for
    seat     INTEGER NOT NULL,
    nth      INTEGER NOT NULL,             -- the how-many-th refusal of that turn (1, 2, ...)
    code     TEXT NOT NULL,
    PRIMARY KEY (table_id, idx, seat, nth)
);
