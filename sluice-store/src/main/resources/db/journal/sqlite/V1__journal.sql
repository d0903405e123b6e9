-- The journal of actions and attempts, cancelled tasks and scope state (issue 5).
-- Portable on purpose: text ids (ULIDs) rather than row ids, instants as integer microseconds
-- since the epoch (PostgreSQL's timestamptz precision), booleans as 0/1, no SQLite-only types.
-- A PostgreSQL schema can mirror it column for column.

CREATE TABLE actions (
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
  retry_statuses        TEXT    NOT NULL,            -- comma-separated, in configured order
  headers               TEXT    NOT NULL,            -- JSON [[name, value], ...]
  payload_digest        TEXT    NOT NULL,            -- hex SHA-256 of the whole payload
  payload_size          INTEGER NOT NULL CHECK (payload_size >= 0),
  payload               BLOB,                        -- NULL when over the journal's cap
  idempotency_key       TEXT,
  external_reference    TEXT,
  provider_operation_id TEXT,
  state                 TEXT    NOT NULL CHECK (state IN ('queued', 'delayed', 'in_flight', 'outcome_unknown', 'reconciling',
                                                          'succeeded', 'failed', 'reconciliation_required', 'escalated', 'cancelled')),
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

-- openActions() on restart, and the later console's queues.
CREATE INDEX actions_by_state_due ON actions (state, due_at);
CREATE INDEX actions_by_task ON actions (task_id);
-- One key names one logical action per provider: an agent repeating its call with the same
-- Idempotency-Key finds the existing action instead of creating a second one.
CREATE UNIQUE INDEX actions_by_idempotency_key ON actions (provider, idempotency_key) WHERE idempotency_key IS NOT NULL;

CREATE TABLE attempts (
  action_id            TEXT    NOT NULL REFERENCES actions (action_id),
  attempt_number       INTEGER NOT NULL CHECK (attempt_number >= 1),
  kind                 TEXT    NOT NULL CHECK (kind IN ('send', 'lookup')),
  started_at           INTEGER NOT NULL,
  idempotency_key_sent TEXT,
  finished_at          INTEGER,
  request_committed    INTEGER NOT NULL DEFAULT 0 CHECK (request_committed IN (0, 1)),
  status               INTEGER,                      -- HTTP status when a response arrived
  failure              TEXT,                         -- transport failure code, or 'abandoned'
  rate_limit_headers   TEXT    NOT NULL DEFAULT '[]', -- JSON [[name, value], ...], allowlisted fields only
  PRIMARY KEY (action_id, attempt_number)
);

CREATE TABLE cancelled_tasks (
  task_id      TEXT    NOT NULL PRIMARY KEY,
  cancelled_at INTEGER NOT NULL
);

CREATE TABLE scopes (
  provider            TEXT    NOT NULL,
  scope               TEXT    NOT NULL,
  request_class       TEXT    NOT NULL,
  next_allowed_at     INTEGER,
  remaining           INTEGER,
  reset_after_seconds INTEGER,
  source              TEXT    NOT NULL,
  PRIMARY KEY (provider, scope)
);
