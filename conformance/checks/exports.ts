/**
 * Exports (seed "Endpoints": `/export` in Markdown, JSON or text; its variant `/exports` in Markdown, PDF
 * or JSON): every format on both paths, each with its media type and a body that really is that format.
 * @module
 */
import { completedSession } from '../harness/completed-session.js';
import { type Exchange, jsonOf, mediaTypeOf } from '../harness/exchange.js';
import { pdfStructureProblems } from '../harness/pdf-structure.js';
import { statusOf } from './problem-shape.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';

const check = checksOf('exports');

type Format = 'markdown' | 'json' | 'text' | 'pdf';

interface ExportBody {
  format?: unknown;
  content_type?: unknown;
  content?: unknown;
  content_encoding?: unknown;
  size_bytes?: unknown;
}

const requirementOf: Readonly<Record<Format, string>> = {
  markdown: 'EXP-001',
  json: 'EXP-002',
  text: 'EXP-003',
  pdf: 'EXP-004',
};
const mediaTypes: Readonly<Record<Format, string>> = {
  markdown: 'text/markdown',
  json: 'application/json',
  text: 'text/plain',
  pdf: 'application/pdf',
};
const paths = ['export', 'exports'] as const;

/** The formats each path is published with (seed "Endpoints"); the contract accepts all four on both. */
const publishedFormats: Readonly<Record<(typeof paths)[number], readonly Format[]>> = {
  export: ['markdown', 'json', 'text'],
  exports: ['markdown', 'pdf', 'json'],
};

/** Tags of HTML a text export must not hold (words in angle brackets from a debate are not tags). */
// Control characters other than tab, line feed and carriage return do not belong in plain text.
// eslint-disable-next-line no-control-regex
const controlCharacter = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
const htmlTag = /<\/?(html|head|body|p|div|span|br|pre|h[1-6]|b|i|em|strong|ul|ol|li|table|tr|td)\b[^>]*>/i;

/** The first non-null `memo` member anywhere in a JSON value. */
function memoIn(value: unknown): unknown {
  if (value === null || typeof value !== 'object') {
    return undefined;
  }
  const record = value as Record<string, unknown>;
  if (record['memo'] !== undefined && record['memo'] !== null) {
    return record['memo'];
  }
  return Object.values(record)
    .map(memoIn)
    .find((memo) => memo !== undefined);
}

function mentions(value: unknown, text: string): boolean {
  return (
    value === text ||
    (value !== null && typeof value === 'object' && Object.values(value).some((member) => mentions(member, text)))
  );
}

/** Why a file is not its format; empty when it is. */
function formatProblems(
  ctx: CheckContext,
  format: Format,
  body: ExportBody,
  session: { id: string; title: string },
): string[] {
  const content = typeof body.content === 'string' ? body.content : '';
  const problems =
    mediaTypeOf(String(body.content_type)) === mediaTypes[format]
      ? []
      : [`content_type ${String(body.content_type)}, not ${mediaTypes[format]}`];
  switch (format) {
    case 'markdown':
      return [
        ...problems,
        ...(/^#{1,6} \S/m.test(content) ? [] : ['no Markdown heading']),
        ...(content.includes(session.title) ? [] : ['no title']),
        ...(/^\s*<(!doctype|html)\b/i.test(content) ? ['an HTML document, not Markdown'] : []),
      ];
    case 'text':
      return [
        ...problems,
        ...(content.includes(session.title) ? [] : ['no title']),
        ...(htmlTag.test(content) ? ['HTML tags'] : []),
        ...(controlCharacter.test(content) ? ['control characters'] : []),
      ];
    case 'json': {
      let parsed: unknown;
      try {
        parsed = JSON.parse(content);
      } catch (error) {
        return [...problems, `not JSON: ${(error as Error).message}`];
      }
      const memo = memoIn(parsed);
      const memoErrors =
        memo === undefined
          ? []
          : ctx.contract.validator
              .validate('#/components/schemas/Memo', memo)
              .errors.map((error) => `memo${error.instancePath} ${error.message ?? ''}`);
      return [...problems, ...(mentions(parsed, session.id) ? [] : ['does not name the session']), ...memoErrors];
    }
    case 'pdf': {
      const bytes = Buffer.from(content, 'base64');
      return [
        ...problems,
        ...(body.content_encoding === 'base64' ? [] : [`content_encoding ${String(body.content_encoding)}`]),
        ...(body.size_bytes === bytes.length
          ? []
          : [`size_bytes ${String(body.size_bytes)}, the file has ${bytes.length}`]),
        ...pdfStructureProblems(bytes),
      ];
    }
  }
}

export const formatsCheck = check('formats', ['EXP-001', 'EXP-002', 'EXP-003', 'EXP-004', 'EXP-005', 'EXP-006'], {
  title: 'Every format on both paths, each really that format',
  preconditions: ['live'],
  async run(ctx) {
    const session = await completedSession(ctx, 'export');
    const formats = Object.keys(requirementOf) as Format[];
    const answers: Array<{ path: (typeof paths)[number]; format: Format; exchange: Exchange }> = [];
    for (const path of paths) {
      for (const format of formats) {
        answers.push({ path, format, exchange: await ctx.http.post(`/v1/sessions/${session.id}/${path}`, { format }) });
      }
    }
    const refused = answers.filter(
      ({ format, exchange }) =>
        statusOf(exchange) !== 201 || (jsonOf(exchange) as ExportBody | undefined)?.format !== format,
    );
    const judge = (requirement: string, published: boolean, what: string) => {
      const wrong = refused.filter(({ path, format }) => publishedFormats[path].includes(format) === published);
      const asked = answers.filter(({ path, format }) => publishedFormats[path].includes(format) === published);
      ctx.expect(
        requirement,
        wrong.length === 0,
        {
          kind: 'status',
          message: `a path did not answer 201 with ${what} asked for`,
          expected: asked.map(({ path, format }) => `/${path} ${format}: 201`),
          got: wrong.map(({ path, format, exchange }) => `/${path} ${format}: ${statusOf(exchange)}`),
          evidence: wrong.map(({ exchange }) => exchange),
        },
        `${asked.map(({ path, format }) => `/${path} ${format}`).join(', ')} exported`,
      );
    };
    judge('EXP-005', true, 'a format it is published with');
    judge('EXP-006', false, "the other path's format");
    for (const format of formats) {
      const exported = answers.filter((answer) => answer.format === format && statusOf(answer.exchange) === 201);
      if (exported.length === 0) {
        ctx.skip(requirementOf[format], `neither path exported ${format}`);
        continue;
      }
      for (const { path, exchange } of exported) {
        const problems = formatProblems(ctx, format, jsonOf(exchange) ?? {}, session);
        ctx.expect(
          requirementOf[format],
          problems.length === 0,
          {
            kind: 'schema',
            message: `the ${format} export of /${path} is not ${format}`,
            expected: `a ${format} file of the session`,
            got: problems,
            evidence: exchange,
          },
          `/${path}: a ${format} file`,
        );
      }
    }
  },
});

export const exportChecks = [formatsCheck];
