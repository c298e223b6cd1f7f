/**
 * The schema of the server's SQLite store, as an ordered list of migrations. `PRAGMA user_version`
 * records how many have run, so a database written by an older build is brought up to date on open.
 * Times are epoch milliseconds of the server clock; JSON columns hold contract-shaped values.
 * @module
 */
export const migrations: readonly string[] = [
  `
  CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );

  CREATE TABLE workspaces (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    tier TEXT NOT NULL,
    api_version TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    secret_hash TEXT NOT NULL UNIQUE,
    hint TEXT NOT NULL,
    environment TEXT NOT NULL CHECK (environment IN ('live', 'test')),
    created_at INTEGER NOT NULL,
    expires_at INTEGER,
    rotated_to TEXT
  );

  CREATE TABLE idempotency_records (
    workspace_id TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('in_flight', 'complete')),
    status INTEGER,
    headers TEXT,
    body TEXT,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, idempotency_key)
  );

  CREATE TABLE rate_limit_windows (
    subject TEXT NOT NULL,
    bucket TEXT NOT NULL,
    window_start INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (subject, bucket)
  );

  CREATE TABLE credit_entries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    at INTEGER NOT NULL,
    source TEXT NOT NULL,
    kind TEXT NOT NULL,
    credits INTEGER NOT NULL,
    session_id TEXT,
    description TEXT NOT NULL
  );
  CREATE INDEX credit_entries_by_workspace ON credit_entries (workspace_id, seq);

  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    record TEXT NOT NULL,
    plan TEXT NOT NULL,
    synthesis TEXT,
    run TEXT,
    next_step_at INTEGER,
    created_at INTEGER NOT NULL,
    deleted_at INTEGER
  );
  CREATE INDEX sessions_by_workspace ON sessions (workspace_id, created_at DESC, id DESC);
  CREATE INDEX sessions_with_runs ON sessions (next_step_at) WHERE next_step_at IS NOT NULL;

  CREATE TABLE stream_events (
    session_id TEXT NOT NULL,
    stream TEXT NOT NULL CHECK (stream IN ('events', 'summary')),
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    data TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (session_id, stream, seq)
  );

  CREATE TABLE session_messages (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    record TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX session_messages_by_session ON session_messages (session_id, created_at, id);

  CREATE TABLE outcomes (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    record TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    ready_due_at INTEGER
  );
  CREATE INDEX outcomes_by_session ON outcomes (session_id, created_at DESC, id DESC);

  CREATE TABLE decisions (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    record TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX decisions_by_session ON decisions (session_id, created_at DESC, id DESC);

  CREATE TABLE shares (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    record TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    password_hash TEXT
  );
  CREATE INDEX shares_by_session ON shares (session_id, created_at DESC, id DESC);

  CREATE TABLE integrations (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    record TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX integrations_by_workspace ON integrations (workspace_id, created_at, id);

  CREATE TABLE actions (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    record TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE conversations (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    record TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE webhook_subscriptions (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    record TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX webhook_subscriptions_by_workspace ON webhook_subscriptions (workspace_id, created_at DESC, id DESC);
  `,
  // The share page finds a link by its URL; the legacy per-key webhook needs the key a session was started with.
  `
  CREATE UNIQUE INDEX shares_by_url ON shares (json_extract(record, '$.url'));
  ALTER TABLE sessions ADD COLUMN api_key_id TEXT;
  `,
];
