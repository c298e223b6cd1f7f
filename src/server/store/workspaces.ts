/**
 * Workspaces: the unit of isolation (seed "Authentication" 3). Every resource belongs to one, and a
 * resource of another workspace is answered as missing.
 * @module
 */
import type { Tier, Workspace } from '../ports/records.js';
import { newId, newUuid } from '../core/ids.js';
import type { SqliteDatabase, WorkspaceStore } from '../ports/store.js';
import { readCache } from './read-cache.js';

export const tiers: readonly Tier[] = ['free', 'pro', 'max', 'ultra', 'enterprise'];

interface WorkspaceRow {
  id: string;
  user_id: string;
  tier: Tier;
  api_version: string;
  created_at: number;
}

const fromRow = (row: WorkspaceRow): Workspace => ({
  id: row.id,
  userId: row.user_id,
  tier: row.tier,
  apiVersion: row.api_version,
  createdAt: row.created_at,
});

export function workspaceStore(db: SqliteDatabase): WorkspaceStore {
  const insert = db.prepare(
    'INSERT INTO workspaces (id, user_id, tier, api_version, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const byId = db.prepare<[string], WorkspaceRow>('SELECT * FROM workspaces WHERE id = ?');
  const count = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM workspaces');
  const setTier = db.prepare('UPDATE workspaces SET tier = ? WHERE id = ?');
  // Read on every authenticated request (src/server/store/read-cache.ts); cleared on each write below.
  const cache = readCache<Workspace>(db);

  return {
    create(tier: Tier, apiVersion: string, now: number): Workspace {
      const workspace: Workspace = { id: newId('wsp'), userId: newUuid(), tier, apiVersion, createdAt: now };
      insert.run(workspace.id, workspace.userId, tier, apiVersion, now);
      cache.clear();
      return workspace;
    },
    get(id: string): Workspace | undefined {
      return cache.get(id, () => {
        const row = byId.get(id);
        return row === undefined ? undefined : fromRow(row);
      });
    },
    setTier(id: string, tier: Tier): void {
      setTier.run(tier, id);
      cache.clear();
    },
    isEmpty(): boolean {
      return (count.get()?.n ?? 0) === 0;
    },
  };
}
