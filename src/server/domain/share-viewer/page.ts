/**
 * The HTML of the share page: the session read-only (title, status, verdict and memo), the password form
 * of a protected link, and the pages that say why nothing is shown. Every value from the store is escaped
 * (HTML Living Standard §13.1.2.6: `&`, `<`, `>`, `"` and `'` cover text and quoted attributes).
 * @module
 */
import { htmlText } from '../../../markup.js';
import type { Share, StoredSession } from '../../ports/records.js';

const style = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1c1e21}
main{max-width:44rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border-radius:8px}
h1{font-size:1.5rem;margin:0 0 .5rem}dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dt{color:#5f6368}dd{margin:0}.verdict{font-size:1.15rem;border-left:4px solid #2f6fde;padding-left:1rem}
.note{color:#5f6368;font-size:.875rem}.error{color:#b3261e}`;

function layout(title: string, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${htmlText(title)}</title><style>${style}</style></head>`,
    `<body><main>${body}</main></body>`,
    '</html>',
    '',
  ].join('\n');
}

function list(items: string[]): string {
  return items.length === 0
    ? '<p class="note">None.</p>'
    : `<ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>`;
}

function memoSection(session: StoredSession): string {
  const memo = session.memo;
  if (memo === null || memo === undefined) {
    return '<p class="note">The board has not reached a verdict yet.</p>';
  }
  return [
    '<h2>Verdict</h2>',
    `<p class="verdict">${htmlText(memo.verdict)}</p>`,
    `<p>Confidence: ${memo.confidence_0_100}/100</p>`,
    '<h2>Conditions</h2>',
    list(memo.conditions.map(htmlText)),
    '<h2>Dissent</h2>',
    list(memo.dissent.map((entry) => `<strong>${htmlText(entry.synth)}</strong>: ${htmlText(entry.position)}`)),
  ].join('\n');
}

/** The session as a viewer of the link sees it. */
export function sessionPage(session: StoredSession, share: Share): string {
  const title = session.title ?? session.question ?? 'Board session';
  const facts: Array<[string, string]> = [
    ['Status', session.status],
    ['Mode', session.mode],
    ['Board', session.synths.join(', ')],
    ['Rounds', `${session.current_round} of ${session.rounds}`],
    ['Completed', session.completed_at ?? 'not yet'],
  ];
  return layout(
    title,
    [
      `<h1>${htmlText(title)}</h1>`,
      `<dl>${facts.map(([name, value]) => `<dt>${name}</dt><dd>${htmlText(value)}</dd>`).join('')}</dl>`,
      memoSection(session),
      `<p class="note">Shared read-only. Views of this link: ${share.view_count}.</p>`,
    ].join('\n'),
  );
}

/** The form of a protected link; it posts the password back to the same address. */
export function passwordPage(error?: string): string {
  return layout(
    'Password required',
    [
      '<h1>This session is protected</h1>',
      '<p>Enter the password you were given with the link.</p>',
      error === undefined ? '' : `<p class="error" role="alert">${htmlText(error)}</p>`,
      '<form method="post">',
      '<label>Password <input type="password" name="password" autocomplete="current-password" required autofocus></label>',
      '<button type="submit">Open</button>',
      '</form>',
    ].join('\n'),
  );
}

/** A page that says why nothing is shown. */
export function messagePage(title: string, text: string): string {
  return layout(title, `<h1>${htmlText(title)}</h1>\n<p>${htmlText(text)}</p>`);
}
