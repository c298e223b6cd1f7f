/**
 * The metadata update of a session (seed "Endpoints": the metadata-update operation on sessions, its path
 * and payload not shown; the contract's `PATCH /v1/sessions/{id}` with Stripe's merge rule).
 * @module
 */
import { jsonOf } from '../harness/exchange.js';
import { discard, marker, readSession, startMarkedSession } from '../harness/sessions.js';
import { statusOf } from './problem-shape.js';
import { checksOf } from './define.js';

const check = checksOf('lifecycle');

type Metadata = Record<string, unknown>;

function metadataOf(session: Record<string, unknown>): Metadata {
  const metadata = session['metadata'];
  return metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata) ? (metadata as Metadata) : {};
}

export const metadataUpdate = check('metadata-update', ['LIFE-013', 'LIFE-014'], {
  title: 'PATCH sets the title and merges the metadata',
  preconditions: ['live'],
  async run(ctx) {
    const started = await startMarkedSession(ctx, 'metadata', 1);
    try {
      const title = marker('metadata renamed');
      const set = await ctx.http.patch(`/v1/sessions/${started.id}`, {
        title,
        metadata: { owner: 'conformance', ticket: 'T-1' },
      });
      const { exchange: firstRead, session: first } = await readSession(ctx.http, started.id);
      const firstMetadata = metadataOf(first);
      ctx.expect(
        'LIFE-013',
        statusOf(set) === 200 &&
          first['title'] === title &&
          firstMetadata['owner'] === 'conformance' &&
          firstMetadata['ticket'] === 'T-1',
        {
          kind: 'state',
          message: `after PATCH (${statusOf(set)}) the session reads title ${JSON.stringify(first['title'])} and metadata ${JSON.stringify(firstMetadata)}`,
          expected: { status: 200, title, metadata: { owner: 'conformance', ticket: 'T-1' } },
          got: { status: statusOf(set), title: first['title'], metadata: firstMetadata },
          evidence: [set, firstRead],
        },
        'the title and both metadata keys read back as set',
      );
      const unset = await ctx.http.patch(`/v1/sessions/${started.id}`, { metadata: { ticket: null } });
      const { exchange: secondRead, session: second } = await readSession(ctx.http, started.id);
      const secondMetadata = metadataOf(second);
      ctx.expect(
        'LIFE-014',
        statusOf(unset) === 200 &&
          !('ticket' in secondMetadata) &&
          secondMetadata['owner'] === firstMetadata['owner'] &&
          second['title'] === first['title'],
        {
          kind: 'state',
          message: `after PATCH {"metadata":{"ticket":null}} (${statusOf(unset)}) the metadata is ${JSON.stringify(secondMetadata)}`,
          expected: { ticket: 'absent', owner: firstMetadata['owner'] ?? null, title: first['title'] ?? null },
          got: { status: statusOf(unset), metadata: secondMetadata, title: second['title'], body: jsonOf(unset) },
          evidence: [unset, secondRead],
        },
        'the null key was removed, the other key and the title kept',
      );
    } finally {
      await discard(ctx.http, started.id);
    }
  },
});

export const sessionMetadataChecks = [metadataUpdate];
