/**
 * Share links of sessions. The password of a protected link is kept only as a scrypt hash with its
 * salt (RFC 7914), never returned.
 * @module
 */
import type { Share } from '../ports/records.js';
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { ShareStore, SqliteDatabase } from '../ports/store.js';
import { recordTable } from './records.js';

export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('hex')}$${scryptSync(password, salt, 32).toString('hex')}`;
}

export function passwordMatches(password: string, stored: string): boolean {
  const [, salt = '', hash = ''] = stored.split('$');
  const expected = Buffer.from(hash, 'hex');
  const actual = scryptSync(password, Buffer.from(salt, 'hex'), expected.length);
  return expected.length > 0 && timingSafeEqual(actual, expected);
}

export function shareStore(db: SqliteDatabase): ShareStore {
  const records = recordTable<Share>(db, 'shares', 'session_id');
  const setPassword = db.prepare('UPDATE shares SET password_hash = ? WHERE id = ?');
  const passwordOf = db.prepare<[string], { password_hash: string | null }>(
    'SELECT password_hash FROM shares WHERE id = ?',
  );
  // The expression matches the `shares_by_url` index.
  const byUrl = db.prepare<[string], { id: string }>("SELECT id FROM shares WHERE json_extract(record, '$.url') = ?");
  const countView = db.prepare(
    `UPDATE shares SET record = json_set(record, '$.view_count', json_extract(record, '$.view_count') + 1,
       '$.last_viewed_at', ?) WHERE id = ?`,
  );
  return {
    ...records,
    create(share: Share, createdAt: number, password: string | undefined): void {
      db.transaction(() => {
        records.insert(share.id, share.session_id, share, createdAt);
        if (password !== undefined) {
          setPassword.run(hashPassword(password), share.id);
        }
      })();
    },
    passwordHashOf: (id: string): string | null => passwordOf.get(id)?.password_hash ?? null,
    /** The share link whose `url` is exactly `url`. */
    getByUrl(url: string) {
      const row = byUrl.get(url);
      return row === undefined ? undefined : records.get(row.id);
    },
    /** Counts one view at `viewedAt` (ISO 8601) in place, so that concurrent views are all counted. */
    countView(id: string, viewedAt: string): Share | undefined {
      countView.run(viewedAt, id);
      return records.get(id)?.record;
    },
  };
}
