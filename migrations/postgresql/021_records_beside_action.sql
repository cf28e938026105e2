-- See ../021_records_beside_action.sql: a step's record rows beside its action.
ALTER TABLE actions ADD COLUMN records TEXT;
