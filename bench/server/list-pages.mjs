/**
 * The list pages bench/server.mjs asks for: cursors to positions spread over a seeded store's list, made
 * with the store's own cursor secret, as the server would have issued them.
 * @module
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { root } from '../support/autocannon.mjs';

/** Cursors to the positions after the sessions at `offsets` in the list, newest first. */
export async function cursorsAt(db, offsets) {
  const { cursorCodec } = await import(join(root, 'lib/src/server/core/pagination.js'));
  const database = new Database(db, { readonly: true });
  try {
    const secret = database.prepare("SELECT value FROM meta WHERE key = 'cursor_secret'").pluck().get();
    const codec = cursorCodec(Buffer.from(secret, 'hex'));
    // One walk down the list's index (the store holds one workspace), taking the rows at the offsets.
    const rows = database
      .prepare(
        `SELECT workspace_id, created_at, id FROM sessions WHERE workspace_id = (SELECT workspace_id FROM sessions LIMIT 1)
         ORDER BY created_at DESC, id DESC LIMIT ?`,
      )
      .iterate(Math.max(...offsets) + 1);
    const wanted = new Set(offsets);
    const cursors = new Map();
    let offset = 0;
    for (const row of rows) {
      if (wanted.has(offset)) {
        // The list name and position are the server's (src/server/http/handlers/sessions.ts); a wrong guess is a 404.
        cursors.set(offset, codec.encode(`sessions:${row.workspace_id}`, { createdAt: row.created_at, id: row.id }));
      }
      offset += 1;
    }
    return offsets.map((at) => cursors.get(at));
  } finally {
    database.close();
  }
}

/**
 * autocannon requests for `pages` full pages of 50 at positions spread evenly over the first `count - 50`
 * sessions, each reached by its cursor and handed out in turn to whichever connection asks next, so that
 * no page comes back within `pages` answers.
 */
export async function pagesInTurn(db, count, pages) {
  const offsets = Array.from({ length: pages }, (_, index) => Math.floor((index * (count - 50)) / pages));
  const paths = (await cursorsAt(db, offsets)).map((cursor) => `/v1/sessions?limit=50&cursor=${cursor}`);
  let next = 0;
  return [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }];
}
