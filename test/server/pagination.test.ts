/**
 * Cursor pagination (seed "Endpoints": limit and cursor, next_cursor null at the end): opaque,
 * tamper-evident cursors bound to their list, and pages that stay exact while items are inserted.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { nextMillisecond } from '../support/next-millisecond.js';
import { getJson, startSession, startTestServer, storedSession, type TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.stop();
});

interface Page {
  items: Array<{ id: string }>;
  next_cursor: string | null;
}

async function allPages(path: string, limit: number, between?: () => Promise<void>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page: Page = await getJson<Page>(
      server,
      `${path}${separator}limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
    );
    ids.push(...page.items.map((item) => item.id));
    cursor = page.next_cursor;
    await between?.();
  } while (cursor !== null);
  return ids;
}

describe('sessions, newest first', () => {
  const started: string[] = [];

  beforeAll(async () => {
    for (let index = 0; index < 7; index += 1) {
      started.push(await startSession(server));
      // Distinct creation times, so that "newest first" is the reverse of the start order.
      server.clock.advance(1);
    }
  });

  test('pages of 3 walk the whole list once, newest first, and the last page ends with null', async () => {
    const first = await getJson<Page>(server, '/v1/sessions?limit=3');
    expect(first.items).toHaveLength(3);
    expect(first.next_cursor).toEqual(expect.any(String));
    expect(await allPages('/v1/sessions', 3)).toEqual([...started].reverse());
  });

  test('the default page holds 20 items', async () => {
    const page = await getJson<Page>(server, '/v1/sessions');
    expect(page.items).toHaveLength(7);
    expect(page.next_cursor).toBeNull();
  });

  test('a listed session is the session its GET answers, members in the same order', async () => {
    const page = await getJson<Page>(server, '/v1/sessions?limit=3');
    for (const item of page.items) {
      const single = await getJson(server, `/v1/sessions/${item.id}`);
      expect(item).toEqual(single);
      expect(Object.keys(item)).toEqual(Object.keys(single));
    }
  });

  test('sessions created in the same millisecond are each listed once, ordered by id', async () => {
    const twins = [await startSession(server), await startSession(server), await startSession(server)];
    server.clock.advance(1);
    const seen = await allPages('/v1/sessions', 1);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, 3)).toEqual([...twins].sort().reverse());
  });

  test('sessions started while paging neither repeat nor shift the pages still to come', async () => {
    const added: string[] = [];
    const seen = await allPages('/v1/sessions', 2, async () => {
      server.clock.advance(1);
      added.push(await startSession(server));
    });
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(started));
    expect(seen.filter((id) => added.includes(id))).toEqual([]);
  });
});

// The server keeps each session's answer until the session is written (docs/decisions.md); a list and
// a read must still show every session as it is now.
describe('pages show the sessions as they are now', () => {
  const listed = async (id: string) =>
    (await getJson<Page>(server, '/v1/sessions?limit=100')).items.find((item) => item.id === id);

  test('each step of a running session shows on the next list, as its GET shows it', async () => {
    const id = await startSession(server);
    const versions = new Set([JSON.stringify(await listed(id))]);
    while (storedSession(server, id).status !== 'complete') {
      server.clock.advance(10_000);
      const item = await listed(id);
      expect(item).toEqual(await getJson(server, `/v1/sessions/${id}`));
      versions.add(JSON.stringify(item));
    }
    // Queued, convened, the round, the memo, complete: more than the first and the last.
    expect(versions.size).toBeGreaterThan(2);
  });

  test('an update and a delete show on the next list', async () => {
    const id = await startSession(server);
    expect(await listed(id)).toMatchObject({ metadata: {} });
    const updated = await server.request(`/v1/sessions/${id}`, {
      method: 'PATCH',
      json: { metadata: { team: 'pricing' } },
    });
    expect(updated.status).toBe(200);
    await updated.arrayBuffer();
    expect(await listed(id)).toMatchObject({ metadata: { team: 'pricing' } });
    const deleted = await server.request(`/v1/sessions/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    await deleted.arrayBuffer();
    expect(await listed(id)).toBeUndefined();
  });

  test("another process's write to the store shows on the next list and the next read", async () => {
    const id = await startSession(server);
    expect(await listed(id)).toMatchObject({ title: 'Raise the Team plan price by 12%' });
    expect(await getJson(server, `/v1/sessions/${id}`)).toMatchObject({ title: 'Raise the Team plan price by 12%' });
    const other = new Database(server.dbFile);
    try {
      other
        .prepare("UPDATE sessions SET record = json_set(record, '$.title', 'Renamed elsewhere') WHERE id = ?")
        .run(id);
    } finally {
      other.close();
    }
    await nextMillisecond();
    expect(await listed(id)).toMatchObject({ title: 'Renamed elsewhere' });
    expect(await getJson(server, `/v1/sessions/${id}`)).toMatchObject({ title: 'Renamed elsewhere' });
  });

  test('a session kept for one workspace is still a 404 for another', async () => {
    const id = await startSession(server);
    expect(await getJson(server, `/v1/sessions/${id}`)).toMatchObject({ id });
    const other = await server.request(`/v1/sessions/${id}`, { key: server.otherKey });
    expect(other.status).toBe(404);
    expect(other.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    await other.arrayBuffer();
  });
});

describe('with no session kept in memory (`--kept-sessions 0`)', () => {
  test('every page is read from the store, the same as kept answers, and shows each write', async () => {
    const cold = await startTestServer({ keptSessions: 0 });
    try {
      const ids: string[] = [];
      for (let index = 0; index < 5; index += 1) {
        ids.push(await startSession(cold));
        cold.clock.advance(1);
      }
      const pages: Page[] = [];
      let cursor: string | null = null;
      do {
        const page: Page = await getJson<Page>(
          cold,
          `/v1/sessions?limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
        );
        pages.push(page);
        cursor = page.next_cursor;
      } while (cursor !== null);
      const listed = pages.flatMap((page) => page.items);
      expect(listed.map((item) => item.id)).toEqual([...ids].reverse());
      for (const item of listed) {
        expect(item).toEqual(await getJson(cold, `/v1/sessions/${item.id}`));
      }
      const updated = await cold.request(`/v1/sessions/${ids[0] as string}`, {
        method: 'PATCH',
        json: { title: 'Renamed' },
      });
      expect(updated.status).toBe(200);
      await updated.arrayBuffer();
      const last = await getJson<Page>(cold, '/v1/sessions?limit=5');
      expect(last.items.at(-1)).toMatchObject({ id: ids[0], title: 'Renamed' });
    } finally {
      await cold.stop();
    }
  });
});

describe('cursors', () => {
  test('an altered or made-up cursor names no page: a 404 problem', async () => {
    const page = await getJson<Page>(server, '/v1/sessions?limit=1');
    const cursor = page.next_cursor ?? '';
    const [payload = '', signature = ''] = cursor.split('.');
    const forged = Buffer.from(
      JSON.stringify({ l: JSON.parse(Buffer.from(payload, 'base64url').toString()).l, p: { createdAt: 0, id: 'x' } }),
    ).toString('base64url');
    for (const bad of [`${forged}.${signature}`, `${payload}.${signature.slice(0, -2)}AA`, 'garbage']) {
      const response = await server.request(`/v1/sessions?cursor=${encodeURIComponent(bad)}`);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { type: string }).type).toMatch(/\/not-found$/);
    }
  });

  test('a cursor outside the bounds of the parameter is a 400 problem pointing at the cursor', async () => {
    const response = await server.request(`/v1/sessions?cursor=${'A'.repeat(513)}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: Array<{ pointer: string }> }).errors[0]?.pointer).toBe(
      '#/query/cursor',
    );
  });

  test("a cursor of one list is refused by another, and by another workspace's list", async () => {
    const page = await getJson<Page>(server, '/v1/sessions?limit=1');
    const cursor = encodeURIComponent(page.next_cursor ?? '');
    const elsewhere = await server.request(`/integrations?cursor=${cursor}`);
    expect(elsewhere.status).toBe(404);
    await elsewhere.arrayBuffer();
    const otherWorkspace = await server.request(`/v1/sessions?cursor=${cursor}`, { key: server.otherKey });
    expect(otherWorkspace.status).toBe(404);
    await otherWorkspace.arrayBuffer();
  });

  test('catalogue lists page the same way', async () => {
    const slugs: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: Array<{ slug: string }>; next_cursor: string | null } = await getJson(
        server,
        `/synths?limit=5${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
      );
      slugs.push(...page.items.map((item) => item.slug));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(slugs).toHaveLength(24);
    expect(new Set(slugs).size).toBe(24);
  });
});
