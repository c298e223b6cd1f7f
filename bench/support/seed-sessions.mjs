/**
 * Fills a store file with `count` sessions in one workspace, fast, for the list benches of
 * bench/server.mjs. One session is started through the reference server's HTTP API (built, from `lib/`)
 * and run to completion on a manual clock; the rest are copies of it with their own ids, one second
 * apart, written through the store's own insert statement in a single transaction (one transaction
 * writes a million rows in seconds; one per row would take minutes).
 *
 *   npm run build && node bench/support/seed-sessions.mjs FILE COUNT
 *
 * The file is replaced. Every session is finished, so the server has no runs to resume at start-up.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './autocannon.mjs';

const lib = (module) => import(pathToFileURL(join(root, 'lib/src/server', module)).href);

/** The key the seeded workspace answers to. */
export const seedKey = 'sk_test_benchsessions0000000001';

async function completedSession(file) {
  const { startServer } = await lib('server.js');
  const { manualClock } = await lib('clock.js');
  const clock = manualClock();
  const server = await startServer({ db: file, apiKeys: [seedKey], clock, onError: (error) => console.error(error) });
  try {
    const response = await fetch(`${server.baseUrl}/v1/sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${seedKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        mode: 'boardroom',
        title: 'Raise the Team plan price by 12%',
        synths: ['cfo', 'skeptic'],
        rounds: 1,
      }),
    });
    const started = await response.json();
    if (response.status !== 202) {
      throw new Error(`start answered ${response.status}: ${JSON.stringify(started)}`);
    }
    const sessions = server.services.store.sessions;
    // The name of the finished status depends on the API version the workspace is pinned to.
    const finished = new Set(['complete', 'completed']);
    // The run publishes each step when the clock passes its due time and schedules the next one once
    // that is written, so the clock moves in small steps with a turn of the event loop between them.
    for (let seconds = 0; !finished.has(sessions.getAny(started.id).session.status); seconds += 1) {
      if (seconds > 3600) {
        throw new Error('the seed session did not complete within an hour of simulated time');
      }
      clock.advance(1000);
      await new Promise((wake) => setImmediate(wake));
    }
    return { id: started.id, completedAt: clock.now() };
  } finally {
    await server.close();
  }
}

/** Replaces `file` with a store holding `count` completed sessions of the workspace of `seedKey`. */
export async function seedSessions(file, count) {
  for (const suffix of ['', '-wal', '-shm']) {
    rmSync(`${file}${suffix}`, { force: true });
  }
  const template = await completedSession(file);
  const { createStore } = await lib('store/index.js');
  const { isoAt } = await lib('clock.js');
  const { newId } = await lib('ids.js');
  const store = createStore(file);
  try {
    const row = store.sessions.getAny(template.id);
    const { session, plan, workspaceId } = row;
    const shifted = (iso, by) => (iso === null ? null : isoAt(Date.parse(iso) - by));
    // A bulk load needs no journal (a failed one is seeded again from scratch): each page is written
    // once, instead of to the write-ahead log first and to the database at the checkpoint.
    store.db.pragma('journal_mode = OFF');
    store.db.pragma('synchronous = OFF');
    store.transaction(() => {
      // The copies go back in time from the template, one second apart, so each has its own position.
      for (let index = 1; index < count; index += 1) {
        const by = index * 1000;
        const copy = {
          ...session,
          id: newId('ses'),
          created_at: shifted(session.created_at, by),
          updated_at: shifted(session.updated_at, by),
          completed_at: shifted(session.completed_at, by),
        };
        store.sessions.insert(workspaceId, copy, plan, row.createdAt - by, row.apiKeyId ?? null);
      }
    });
    store.db.pragma('journal_mode = WAL');
    return { key: seedKey, sessionId: template.id };
  } finally {
    store.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, count] = process.argv.slice(2);
  if (file === undefined || !/^\d+$/.test(count ?? '')) {
    throw new Error('usage: node bench/support/seed-sessions.mjs FILE COUNT');
  }
  const started = performance.now();
  await seedSessions(file, Number(count));
  console.log(`${count} sessions in ${file} in ${((performance.now() - started) / 1000).toFixed(1)} s; key ${seedKey}`);
}
