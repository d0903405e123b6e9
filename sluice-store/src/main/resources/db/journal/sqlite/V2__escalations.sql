-- Escalations, operator decisions, task goals and per-call approval (issue 7).
-- The actions table is rebuilt to admit the new state 'awaiting_approval' in its CHECK: SQLite
-- cannot alter a CHECK in place. The documented procedure (https://sqlite.org/lang_altertable.html,
-- "other kinds of table schema changes"): foreign keys off, new table, copy, drop, rename, verify.
-- It runs outside Flyway's transaction (V2__escalations.sql.conf) because PRAGMA foreign_keys is a
-- no-op inside one; the rebuild itself is one transaction (a savepoint: Flyway's parser takes BEGIN for a block).

PRAGMA foreign_keys = OFF;

SAVEPOINT rebuild_actions;

CREATE TABLE actions_v2 (
  action_id             TEXT    NOT NULL PRIMARY KEY,
  task_id               TEXT    NOT NULL,
  priority              TEXT    NOT NULL CHECK (priority IN ('interactive', 'background')),
  provider              TEXT    NOT NULL,
  scope                 TEXT    NOT NULL,
  route_template        TEXT    NOT NULL,
  method                TEXT    NOT NULL,
  target                TEXT    NOT NULL,
  request_class         TEXT    NOT NULL,
  max_attempts          INTEGER NOT NULL CHECK (max_attempts >= 1),
  max_wait_micros       INTEGER NOT NULL CHECK (max_wait_micros >= 0),
  retry_statuses        TEXT    NOT NULL,
  headers               TEXT    NOT NULL,
  payload_digest        TEXT    NOT NULL,
  payload_size          INTEGER NOT NULL CHECK (payload_size >= 0),
  payload               BLOB,
  idempotency_key       TEXT,
  external_reference    TEXT,
  provider_operation_id TEXT,
  state                 TEXT    NOT NULL CHECK (state IN ('queued', 'delayed', 'in_flight', 'outcome_unknown', 'reconciling',
                                                          'succeeded', 'failed', 'reconciliation_required', 'escalated', 'cancelled',
                                                          'awaiting_approval')),
  created_at            INTEGER NOT NULL,
  due_at                INTEGER NOT NULL,
  updated_at            INTEGER NOT NULL,
  attempts_used         INTEGER NOT NULL CHECK (attempts_used >= 0),
  waited_micros         INTEGER NOT NULL CHECK (waited_micros >= 0),
  deadline              INTEGER,
  last_status           INTEGER,
  outcome               TEXT,
  reason                TEXT,
  version               INTEGER NOT NULL
);

INSERT INTO actions_v2 SELECT * FROM actions;
DROP TABLE actions;
ALTER TABLE actions_v2 RENAME TO actions;

CREATE INDEX actions_by_state_due ON actions (state, due_at);
CREATE INDEX actions_by_task ON actions (task_id);
CREATE UNIQUE INDEX actions_by_idempotency_key ON actions (provider, idempotency_key) WHERE idempotency_key IS NOT NULL;

-- One row per hand-over to a person. The dossier is not stored: it is built from the action's
-- rows when read, so it always shows what the journal holds.
CREATE TABLE escalations (
  escalation_id        INTEGER NOT NULL PRIMARY KEY,   -- shown as E-<n>
  action_id            TEXT    NOT NULL REFERENCES actions (action_id),
  trigger_code         TEXT    NOT NULL,
  detail               TEXT    NOT NULL,
  state                TEXT    NOT NULL CHECK (state IN ('open', 'decided')),
  created_at           INTEGER NOT NULL,
  options              TEXT    NOT NULL,               -- comma-separated option codes, in offered order
  decision_option      TEXT,
  decided_by           TEXT,
  decision_reason      TEXT,
  decision_confirmed   INTEGER CHECK (decision_confirmed IN (0, 1)),
  decided_at           INTEGER,
  CHECK ((state = 'decided') = (decision_option IS NOT NULL))
);
-- At most one open escalation per action.
CREATE UNIQUE INDEX escalations_open_by_action ON escalations (action_id) WHERE state = 'open';

CREATE TABLE task_goals (
  task_id TEXT NOT NULL PRIMARY KEY,
  goal    TEXT NOT NULL
);

RELEASE rebuild_actions;

PRAGMA foreign_keys = ON;
