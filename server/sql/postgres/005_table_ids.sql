-- The table ids handed out: each block taken raises top (never lowers it), above every
-- id stored, so no id is handed out twice whatever any other store forgot.
CREATE TABLE table_ids (
    only_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (only_row),
    top      BIGINT NOT NULL
);
INSERT INTO table_ids (top) SELECT COALESCE(MAX(num), 0) FROM tables;
CREATE INDEX tables_num ON tables (num);
