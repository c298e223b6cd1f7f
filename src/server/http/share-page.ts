/**
 * The share page at `{base_url}/s/{token}`, outside the versioned API: where the web app opens a share
 * link (`https://share.decision-board.example/s/{token}`), the reference server answers with the same
 * token. `GET` shows a public link's session, or a protected link's password form; `POST` with the form's
 * `password` (`application/x-www-form-urlencoded`, HTML Living Standard §4.10.21.8) shows it once the
 * password matches. What a viewer sees is a page; a request no form sends gets a problem of the catalogue.
 * @module
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError } from '../core/problems.js';
import type { Services } from '../ports/services.js';
import { messagePage, passwordPage, sessionPage } from '../domain/share-viewer/page.js';
import { openShare, type ShareOpening } from '../domain/share-viewer/views.js';
import { internalError } from '../core/internal-errors.js';

const pageUrl = '/s/:token';
const formMediaType = 'application/x-www-form-urlencoded';

/**
 * The link's token is in the address, so the page must not leak it onwards (no referrer), must not be
 * kept by caches, framed or run anything (Content-Security-Policy with no script source).
 */
const pageHeaders = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; '),
};

function render(opening: ShareOpening): { status: number; html: string; headers?: Record<string, string> } {
  switch (opening.outcome) {
    case 'shown':
      return { status: 200, html: sessionPage(opening.session, opening.share) };
    case 'password-required':
      return { status: 200, html: passwordPage() };
    case 'wrong-password': {
      const left =
        opening.guessesLeft === 0
          ? 'this link now pauses further tries'
          : `${opening.guessesLeft} more ${opening.guessesLeft === 1 ? 'try' : 'tries'} before a pause`;
      return { status: 403, html: passwordPage(`That password is not right; ${left}.`) };
    }
    case 'too-many-guesses': {
      const wait = `Too many wrong passwords for this link; try again in ${opening.retryAfterSeconds} seconds.`;
      const headers = { 'Retry-After': String(opening.retryAfterSeconds) };
      return { status: 429, html: messagePage('Too many attempts', wait), headers };
    }
    case 'gone':
      return {
        status: 410,
        html: messagePage('This link no longer works', `It was ${opening.reason} at ${opening.at}.`),
      };
    case 'unknown':
      return { status: 404, html: messagePage('No such link', 'Check that the address was copied in full.') };
  }
}

function send(reply: FastifyReply, opening: ShareOpening): FastifyReply {
  const { status, html, headers = {} } = render(opening);
  return reply
    .code(status)
    .headers({ ...pageHeaders, ...headers })
    .type('text/html; charset=utf-8')
    .send(html);
}

/** The `password` field of the posted form. */
function postedPassword(request: FastifyRequest): string {
  const contentType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (contentType !== formMediaType) {
    throw new ProblemError(415, `The share page takes its form as ${formMediaType}.`);
  }
  const raw = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
  const password = new URLSearchParams(raw).get('password');
  if (password === null) {
    throw new ProblemError(400, 'The form has no password field.', {
      errors: [{ pointer: '#/body/password', detail: 'is required' }],
    });
  }
  return password;
}

function tokenOf(request: FastifyRequest): string {
  return (request.params as { token: string }).token;
}

export function registerSharePage(app: FastifyInstance, services: Services): void {
  // Pages are outside the contract, so its response checks do not apply to them.
  const config = { outsideContract: true };
  app.get(pageUrl, { config }, (request, reply) => send(reply, openShare(services, tokenOf(request), undefined)));
  app.post(pageUrl, { config }, (request, reply) =>
    send(reply, openShare(services, tokenOf(request), postedPassword(request))),
  );
  const allow = ['GET', 'POST'];
  // Every other method is refused with 405 by the request hook, as on the contract's paths.
  app.route({
    method: app.supportedMethods.filter((method) => !allow.includes(method)),
    url: pageUrl,
    config: { allow, outsideContract: true },
    handler: () => {
      throw internalError('BOARDKIT_PIPELINE_METHOD_NOT_OFFERED');
    },
  });
}
