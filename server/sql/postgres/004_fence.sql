-- A table's fence: raised by one each time a journal claims the table (takes it over); a
-- journal's write of the table is stored only while the fence is the one it last saw.
ALTER TABLE tables ADD COLUMN fence BIGINT NOT NULL DEFAULT 0;
