/**
 * API keys (seed "Authentication"): bearer secrets stored only as SHA-256 hashes, each in one workspace
 * and one environment, told apart by the prefix (`sk_test_`/`sk_live_`, the second published form
 * `mcp_test_`/`mcp_live_`, or any other prefix naming the environment, such as `sk_<brand>_test_`). Rotating a key issues a new one and keeps the old one valid for 24 hours
 * (seed "Limits": old key validity after rotation); revoking one ends it at once.
 *
 * A workspace holds the keys of one environment only (designed): its first key decides which, and a key of
 * the other environment is refused, so that a test key can never reach live data (seed "Authentication" 3:
 * keys are scoped per environment and per workspace). Test and live data live in separate workspaces.
 * @module
 */
import type { ApiKey, Environment } from '../ports/records.js';
import { hash } from 'node:crypto';
import { newId, randomAlphanumeric } from '../core/ids.js';
import type { ApiKeyStore, SqliteDatabase } from '../ports/store.js';
import { readCache } from './read-cache.js';
import { internalError } from '../core/internal-errors.js';

/**
 * A key is a prefix naming the environment and a secret: `sk_live_…`, `mcp_test_…`, and the forms the
 * service's own pages publish, `sk_<brand>_live_…` and `<two letters>_live_…`. Any prefix of letters and
 * digits, in `_`-separated words, is accepted (docs/decisions.md "Tolerance"); the shortest prefix
 * followed by `_live_` or `_test_` is the prefix.
 */
export const keyPattern = /^([A-Za-z][A-Za-z0-9]*?(?:_[A-Za-z0-9]+)*?)_(live|test)_([A-Za-z0-9]{8,128})$/;

/** What a key looks like, for the messages that refuse a string that is not one. */
export const keyFormHint =
  'an API key is a prefix naming the environment (sk_test_, sk_live_, mcp_test_, sk_<word>_test_, …) followed by 8 to 128 letters or digits';

interface KeyRow {
  id: string;
  workspace_id: string;
  environment: Environment;
  hint: string;
  expires_at: number | null;
}

const fromRow = (row: KeyRow): ApiKey => ({
  id: row.id,
  workspaceId: row.workspace_id,
  environment: row.environment,
  hint: row.hint,
  expiresAt: row.expires_at,
});

export function hashSecret(secret: string): string {
  // The one-shot form: half the cost of a `Hash` object, on every authenticated request.
  return hash('sha256', secret);
}

/** `sk_test_…` → `{prefix: 'sk', environment: 'test'}`, or `undefined` for a string that is not a key. */
export function parseKey(secret: string): { prefix: string; environment: Environment } | undefined {
  const match = keyPattern.exec(secret);
  return match === null ? undefined : { prefix: match[1] ?? 'sk', environment: match[2] as Environment };
}

export function keyHint(secret: string): string {
  const parsed = parseKey(secret);
  if (parsed === undefined) {
    throw internalError('BOARDKIT_KEY_MALFORMED', secret, keyFormHint);
  }
  return `${parsed.prefix}_${parsed.environment}_...${secret.slice(-4)}`;
}

export function generateSecret(environment: Environment, prefix = 'sk'): string {
  return `${prefix}_${environment}_${randomAlphanumeric(32)}`;
}

/** The rotation grace (seed "Limits": old key validity after rotation, 24 hours). */
export const rotationGraceMs = 24 * 60 * 60 * 1000;

export function apiKeyStore(db: SqliteDatabase): ApiKeyStore {
  const insert = db.prepare(
    'INSERT INTO api_keys (id, workspace_id, secret_hash, hint, environment, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const byHash = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE secret_hash = ?');
  const expire = db.prepare('UPDATE api_keys SET expires_at = ?, rotated_to = ? WHERE id = ?');
  const revoke = db.prepare(
    'UPDATE api_keys SET expires_at = ? WHERE id = ? AND (expires_at IS NULL OR expires_at > ?)',
  );
  const endOf = db.prepare<[string], { expires_at: number | null }>('SELECT expires_at FROM api_keys WHERE id = ?');
  const environmentOf = db.prepare<[string], { environment: Environment }>(
    'SELECT environment FROM api_keys WHERE workspace_id = ? LIMIT 1',
  );

  // Every authenticated request looks its key up: the keys are cached by the secret's SHA-256 digest
  // and the cache is cleared on every write below (add, rotate, revoke), so a revocation is seen at once.
  // The end of a grace needs no write: `authenticate` compares it with the clock on every hit.
  const cache = readCache<ApiKey>(db);

  function add(workspaceId: string, secret: string, now: number): ApiKey {
    const parsed = parseKey(secret);
    if (parsed === undefined) {
      throw internalError('BOARDKIT_KEY_MALFORMED', secret, keyFormHint);
    }
    const held = environmentOf.get(workspaceId)?.environment;
    if (held !== undefined && held !== parsed.environment) {
      throw internalError('BOARDKIT_KEY_ENVIRONMENT_MIXED', workspaceId, held, parsed.environment);
    }
    const key: ApiKey = {
      id: newId('key'),
      workspaceId,
      environment: parsed.environment,
      hint: keyHint(secret),
      expiresAt: null,
    };
    insert.run(key.id, workspaceId, hashSecret(secret), key.hint, key.environment, now);
    cache.clear();
    return key;
  }

  /** The key a secret names, whether or not it is still valid. */
  function lookup(secret: string): ApiKey | undefined {
    const digest = hashSecret(secret);
    return cache.get(digest, () => {
      const row = byHash.get(digest);
      return row === undefined ? undefined : fromRow(row);
    });
  }

  return {
    add,
    lookup,
    /** The key a bearer secret authenticates at `now`: known, and not past the end of its rotation grace. */
    authenticate(secret: string, now: number): ApiKey | undefined {
      const key = lookup(secret);
      return key !== undefined && (key.expiresAt === null || now < key.expiresAt) ? key : undefined;
    },
    /** Whether the key with this id is still valid at `now` (an open stream asks before each write). */
    isCurrent(id: string, now: number): boolean {
      const row = endOf.get(id);
      return row !== undefined && (row.expires_at === null || now < row.expires_at);
    },
    /** Ends a key at `now` (a key already past its grace keeps its earlier end); `false` if none changed. */
    revoke(id: string, now: number): boolean {
      cache.clear();
      return revoke.run(now, id, now).changes > 0;
    },
    /** Issues a new key in the same workspace and environment; the old one stays valid for 24 hours. */
    rotate(secret: string, now: number): { secret: string; key: ApiKey; oldKeyExpiresAt: number } {
      const old = lookup(secret);
      if (old === undefined || (old.expiresAt !== null && now >= old.expiresAt)) {
        throw internalError('BOARDKIT_KEY_UNKNOWN_OR_EXPIRED');
      }
      const parsed = parseKey(secret);
      const fresh = generateSecret(old.environment, parsed?.prefix);
      return db.transaction(() => {
        const key = add(old.workspaceId, fresh, now);
        // Rotating an already rotated key does not extend its grace.
        const expiresAt = old.expiresAt ?? now + rotationGraceMs;
        expire.run(expiresAt, key.id, old.id);
        cache.clear();
        return { secret: fresh, key, oldKeyExpiresAt: expiresAt };
      })();
    },
  };
}
