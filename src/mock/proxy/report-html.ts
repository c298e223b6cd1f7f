/**
 * report.html of a proxy run: one self-contained page (inline style, no external asset, readable offline
 * and as a CI artefact) in the look of the conformance report: the verdict, the counts, every violation
 * with its request and answer, and the coverage of the traffic (operations with their statuses, variant
 * sets with their branches, stream events).
 * @module
 */
import type { Seen, TrafficCoverage } from './coverage.js';
import type { Violation } from './findings.js';
import type { ProxyReport } from './report.js';
import { htmlText } from '../../markup.js';
import { verdictLine } from './report.js';

const style = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:20px 28px}header h1{margin:0 0 6px;font-size:20px}header p{margin:2px 0;color:#c9cfdb}
main{padding:20px 28px}.verdict{display:inline-block;padding:3px 10px;border-radius:4px;font-weight:600;margin-top:8px}
.verdict.pass{background:#1f7a4a}.verdict.fail{background:#b3261e}.verdict.none{background:#a15c00}
.counts{display:flex;gap:12px;flex-wrap:wrap}.counts div{background:#fff;border:1px solid #dde1e8;border-radius:6px;padding:8px 12px}
h2{font-size:16px;margin:26px 0 8px}table{border-collapse:collapse;width:100%;background:#fff}
td,th{border-bottom:1px solid #e4e7ee;padding:6px 8px;text-align:left;vertical-align:top}
.status{font-weight:700;text-transform:uppercase;font-size:12px}.pass{color:#1f7a4a}.fail{color:#b3261e}.muted{color:#6b7280}
details{margin:4px 0}summary{cursor:pointer}pre{background:#f0f2f5;padding:8px;overflow:auto;max-height:320px;white-space:pre-wrap;word-break:break-all;margin:4px 0}
.chip{display:inline-block;border-radius:3px;padding:0 5px;margin:1px;font-size:12px;background:#e4e7ee}.chip.s2{background:#d5efe0}.chip.s4{background:#fbe3c4}.chip.s5{background:#f6d1ce}
tr.gap td{background:#fff7f6}`;

function headers(record: Record<string, string> = {}): string {
  return Object.entries(record)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

function violationRow(violation: Violation): string {
  const { evidence } = violation;
  const request = `${evidence.method} ${evidence.target}\n${headers(evidence.requestHeaders)}${evidence.requestBody === undefined ? '' : `\n\n${evidence.requestBody}`}`;
  const answer =
    evidence.status === undefined
      ? 'no answer'
      : `${evidence.status}\n${headers(evidence.responseHeaders)}${evidence.responseBody === undefined ? '' : `\n\n${evidence.responseBody}`}${evidence.truncated === true ? '\n[cut]' : ''}`;
  const expectation =
    violation.expected === undefined && violation.got === undefined
      ? ''
      : `<pre>expected: ${htmlText(JSON.stringify(violation.expected ?? null, null, 2))}\n\ngot: ${htmlText(JSON.stringify(violation.got ?? null, null, 2))}</pre>`;
  return `<tr><td class="status ${violation.counted ? 'fail' : 'muted'}">${violation.kind}${violation.counted ? '' : '<br><span class="muted">not counted</span>'}</td>
<td><code>${htmlText(violation.operation ?? '(not in the contract)')}</code><br><span class="muted">#${violation.exchange} ${htmlText(violation.method)} ${htmlText(violation.target)} → ${violation.status ?? 'no answer'}</span></td>
<td><code>${htmlText(violation.pointer)}</code> ${htmlText(violation.message)}<details><summary>evidence</summary>${expectation}<p class="muted">Request</p><pre>${htmlText(request)}</pre><p class="muted">Answer</p><pre>${htmlText(answer)}</pre></details></td></tr>`;
}

function seenRows(items: readonly Seen[]): string {
  return items
    .map(
      (item) =>
        `<tr class="${item.seen === 0 ? 'gap' : ''}"><td><code>${htmlText(item.name)}</code>${item.documented ? '' : ' <span class="muted">(not in the contract)</span>'}</td><td>${item.seen}</td></tr>`,
    )
    .join('');
}

function coverageSection(coverage: TrafficCoverage): string {
  const counts = Object.entries(coverage.summary)
    .map(([kind, { seen, documented }]) => `<div><b>${seen}/${documented}</b> ${htmlText(kind)}</div>`)
    .join('');
  const operations = coverage.operations
    .map((operation) => {
      const chips = Object.entries(operation.statuses)
        .map(([status, count]) => `<span class="chip s${status[0]}">${htmlText(status)} ×${count}</span>`)
        .join(' ');
      const unseen =
        operation.unseenStatuses.length === 0
          ? ''
          : `<br><span class="muted">not seen: ${htmlText(operation.unseenStatuses.join(', '))}</span>`;
      return `<tr class="${operation.calls === 0 ? 'gap' : ''}"><td><code>${htmlText(operation.method)} ${htmlText(operation.path)}</code><br><span class="muted">${htmlText(operation.operationId)}</span></td><td>${operation.calls}</td><td>${chips}${unseen}</td></tr>`;
    })
    .join('');
  const variants = coverage.variants
    .map(
      (set) =>
        `<details><summary><code>${htmlText(set.set)}</code> (${set.branches.filter((branch) => branch.seen > 0).length}/${set.branches.length})</summary><table><tbody>${seenRows(set.branches)}</tbody></table></details>`,
    )
    .join('');
  return `<h2>Coverage of the contract by the traffic</h2><div class="counts">${counts}${coverage.unknownRequests > 0 ? `<div><b>${coverage.unknownRequests}</b> requests outside the contract</div>` : ''}</div>
<h2>Operations</h2><table><thead><tr><th>operation</th><th>calls</th><th>statuses</th></tr></thead><tbody>${operations}</tbody></table>
<h2>Variants (oneOf branches)</h2>${variants}
<h2>Stream events</h2><table><thead><tr><th>event</th><th>seen</th></tr></thead><tbody>${seenRows(coverage.streamEvents)}</tbody></table>`;
}

export function renderHtml(report: ProxyReport): string {
  const verdictClass = { pass: 'pass', fail: 'fail', 'no answer': 'none' }[report.verdict];
  const violations =
    report.violations.length === 0
      ? '<p class="pass">No violation: every request and answer relayed matched the contract.</p>'
      : `<table><thead><tr><th>kind</th><th>exchange</th><th>violation</th></tr></thead><tbody>${report.violations.map(violationRow).join('\n')}</tbody></table>`;
  const byKind = Object.entries(report.summary.violations)
    .map(([kind, count]) => `<div><b>${count}</b> ${kind} violations</div>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Validation proxy report: ${htmlText(report.upstream)}</title><style>${style}</style></head>
<body><header><h1>Decision-Board API traffic against the contract</h1>
<p>Upstream ${htmlText(report.upstream)} · proxy ${htmlText(report.proxy)} · stopped by ${htmlText(report.stoppedBy)} · --fail-on ${htmlText(report.failOn.join(',') || 'none')}</p>
<p>${htmlText(report.tool.name)} ${htmlText(report.tool.version)}, contract ${htmlText(report.contractVersion)} · ${report.startedAt} · ${(report.durationMs / 1000).toFixed(1)} s</p>
<span class="verdict ${verdictClass}" data-verdict="${htmlText(report.verdict)}">${htmlText(verdictLine(report))}</span></header>
<main><div class="counts"><div><b>${report.summary.exchanges}</b> requests relayed</div><div><b>${report.summary.unanswered}</b> unanswered</div>${byKind}<div><b>${report.summary.counted}</b> counted</div></div>
<h2>Violations (${report.violations.length})</h2>${violations}
${coverageSection(report.coverage)}
</main></body></html>
`;
}
