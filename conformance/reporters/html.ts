/**
 * report.html: one self-contained page (inline style and script, no external asset, readable offline and
 * as a CI artifact): the verdict, the counts, the coverage of the contract with its gaps, and per
 * requirement its status, its seed section and the evidence, each exchange with its request and response.
 * @module
 */
import {
  type EvidenceRecord,
  type ObservationRecord,
  type RequirementResult,
  type RunResult,
  verdictLine,
} from '../harness/results.js';
import { reportedCategories } from '../requirements/types.js';
import { coverageSection, coverageStyle } from './coverage-html.js';
import { htmlText } from '../../src/markup.js';

const style = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:20px 28px}header h1{margin:0 0 6px;font-size:20px}
header p{margin:2px 0;color:#c9cfdb}main{padding:20px 28px}
.verdict{display:inline-block;padding:3px 10px;border-radius:4px;font-weight:600;margin-top:8px}
.verdict.ok{background:#1f7a4a}.verdict.bad{background:#b3261e}.verdict.incomplete{background:#a15c00}
.counts{display:flex;gap:12px;flex-wrap:wrap;margin:0 0 18px}.counts div{background:#fff;border:1px solid #dde1e8;border-radius:6px;padding:8px 12px}
.filters button{margin-right:6px;border:1px solid #bbc2cf;background:#fff;border-radius:4px;padding:4px 10px;cursor:pointer}
.filters button.on{background:#1d2330;color:#fff}
h2{font-size:16px;margin:26px 0 8px}table{border-collapse:collapse;width:100%;background:#fff}
td,th{border-bottom:1px solid #e4e7ee;padding:6px 8px;text-align:left;vertical-align:top}
.status{font-weight:700;text-transform:uppercase;font-size:12px}.pass{color:#1f7a4a}.fail{color:#b3261e}.skip{color:#6b7280}.error{color:#a15c00}
details{margin:4px 0}summary{cursor:pointer}pre{background:#f0f2f5;padding:8px;overflow:auto;max-height:320px;white-space:pre-wrap;word-break:break-all;margin:4px 0}
.obs{border-left:3px solid #dde1e8;padding-left:8px;margin:6px 0}.obs.fail{border-color:#b3261e}.obs.error{border-color:#a15c00}
.muted{color:#6b7280}tr.requirement:target td{background:#fffbe6}`;

const script = `
document.querySelectorAll('.filters button').forEach(function(button){button.addEventListener('click',function(){
var wanted=button.dataset.status;document.querySelectorAll('.filters button').forEach(function(b){b.classList.toggle('on',b===button)});
document.querySelectorAll('tr.requirement').forEach(function(row){row.style.display=(wanted==='all'||row.dataset.status===wanted)?'':'none'})})});`;

function json(value: unknown): string {
  return htmlText(typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

function headers(record: Record<string, string>): string {
  return Object.entries(record)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

function exchange(record: EvidenceRecord): string {
  const request = `${record.request.method} ${record.request.url}\n${headers(record.request.headers)}${record.request.body === undefined ? '' : `\n\n${record.request.body}`}`;
  const response =
    record.response === undefined
      ? `no response: ${record.error ?? 'unknown'}`
      : `${record.response.status}\n${headers(record.response.headers)}\n\n${record.response.body}${record.response.truncated === true ? '\n[cut]' : ''}`;
  const label = record.inbound === true ? 'received by the suite' : 'sent by the suite';
  return `<details><summary>#${record.id} ${htmlText(record.request.method)} ${htmlText(record.request.url)} → ${record.response?.status ?? 'no response'} <span class="muted">(${label}, ${record.durationMs} ms)</span></summary>
<p class="muted">Request</p><pre>${htmlText(request)}</pre><p class="muted">${record.inbound === true ? 'Answer of the suite' : 'Response'}</p><pre>${htmlText(response)}</pre></details>`;
}

function observation(record: ObservationRecord): string {
  const expectation =
    record.expected === undefined && record.got === undefined
      ? ''
      : `<details open><summary>expected / got</summary><pre>expected: ${json(record.expected ?? null)}\n\ngot: ${json(record.got ?? null)}</pre></details>`;
  return `<div class="obs ${record.outcome}"><span class="status ${record.outcome}">${record.outcome}</span> <code>${htmlText(record.check)}</code>${record.kind === undefined ? '' : ` <span class="muted">${record.kind}</span>`}: ${htmlText(record.message)}${expectation}${record.evidence.map(exchange).join('')}</div>`;
}

function row(result: RequirementResult): string {
  return `<tr class="requirement" id="${result.id}" data-status="${result.status}"><td class="status ${result.status}">${result.status}</td><td><b>${result.id}</b><br><span class="muted">${result.level}</span></td>
<td>${htmlText(result.statement)}<br><span class="muted">Seed: ${htmlText(result.seed)} · ${result.provenance}${result.references === undefined ? '' : ` · ${htmlText(result.references.join(', '))}`}</span>${result.reason === undefined ? '' : `<br><i>${htmlText(result.reason)}</i>`}${result.remedy === undefined ? '' : `<br><span class="muted">To check it: ${htmlText(result.remedy)}</span>`}
<details><summary>${result.observations.length} observations · checks: ${htmlText(result.checks.join(', '))}</summary>${result.observations.map(observation).join('')}</details></td></tr>`;
}

export function renderHtml(result: RunResult): string {
  const { summary } = result;
  const sections = reportedCategories
    .map((category) => result.requirements.filter((requirement) => requirement.category === category))
    .filter((group) => group.length > 0)
    .map(
      (group) => `<h2>${htmlText(group[0]!.category)}</h2><table><tbody>${group.map(row).join('\n')}</tbody></table>`,
    )
    .join('\n');
  const levels = (['MUST', 'SHOULD', 'MAY'] as const)
    .map(
      (level) =>
        `<div><b>${level}</b> ${summary.byLevel[level].pass} pass · ${summary.byLevel[level].fail} fail · ${summary.byLevel[level].error} error · ${summary.byLevel[level].skip} skip</div>`,
    )
    .join('');
  const verdictClass = { conformant: 'ok', 'not conformant': 'bad', incomplete: 'incomplete' }[summary.verdict];
  const verdict = `<span class="verdict ${verdictClass}" data-verdict="${summary.verdict}">${htmlText(verdictLine(summary))}</span>`;
  const unchecked =
    summary.mustUnchecked.length === 0
      ? ''
      : `<h2>MUST requirements not checked (${summary.mustUnchecked.length})</h2><table><thead><tr><th>requirement</th><th>why</th><th>what would enable it</th></tr></thead><tbody>${summary.mustUnchecked
          .map(
            (one) =>
              `<tr><td><a href="#${htmlText(one.id)}">${htmlText(one.id)}</a> <span class="status ${one.status}">${one.status}</span></td><td>${htmlText(one.reason)}</td><td>${htmlText(one.remedy)}</td></tr>`,
          )
          .join('')}</tbody></table>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Conformance report: ${htmlText(result.target.baseUrl)}</title><style>${style}${coverageStyle}</style></head>
<body><header><h1>${htmlText(result.suite.title ?? 'Decision-Board API conformance')}</h1>
<p>Target ${htmlText(result.target.baseUrl)} · ${result.target.live ? 'live implementation' : 'mock'} · profile ${htmlText(result.profile.name)} · time scale ${result.target.timeScale}${result.target.testControl ? ' (test control)' : ''}</p>
<p>${htmlText(result.suite.name)} ${htmlText(result.suite.version)}, contract ${htmlText(result.suite.contractVersion)} · ${result.startedAt} · ${(result.durationMs / 1000).toFixed(1)} s</p>${verdict}</header>
<main>${unchecked}<div class="counts"><div><b>${summary.requirements.total}</b> requirements</div><div class="pass">${summary.requirements.pass} pass</div><div class="fail">${summary.requirements.fail} fail</div><div class="error">${summary.requirements.error} error</div><div class="skip">${summary.requirements.skip} skip</div>${levels}</div>
${result.coverage === undefined ? '' : coverageSection(result.coverage, new Map(result.requirements.map((requirement) => [requirement.id, requirement.status])))}
<h2>Requirements</h2>
<div class="filters"><button data-status="all" class="on">all</button><button data-status="fail">fail</button><button data-status="error">error</button><button data-status="skip">skip</button><button data-status="pass">pass</button></div>
${sections}
</main><script>${script}</script></body></html>
`;
}
