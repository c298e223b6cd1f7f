/**
 * The coverage section of report.html: the counts per kind, the gaps with the requirements that would
 * cover them, every operation with its calls and statuses, and every documented item with how often the
 * run saw it. Requirement IDs link to their rows in the report.
 * @module
 */
import type { Coverage, ItemCoverage, OperationCoverage } from '../harness/coverage.js';
import { itemKinds, type CoverageKind } from '../requirements/coverage.js';
import { coverageLabels, coveredBy, gapLabels, type RunStatuses, statusNote } from './coverage-text.js';
import { htmlText } from '../../src/markup.js';

/** A requirement's ID, linked to its row when the run has one (requirements not selected have none). */
function requirementLink(id: string, statuses: RunStatuses): string {
  return statuses.has(id) ? `<a href="#${htmlText(id)}">${htmlText(id)}</a>` : htmlText(id);
}

function requirementLinks(ids: readonly string[], statuses: RunStatuses): string {
  return ids.length === 0
    ? '<span class="muted">none yet</span>'
    : ids.map((id) => requirementLink(id, statuses)).join(', ');
}

/** The requirements of a gap, each with its status in this run. */
function gapRequirements(ids: readonly string[], statuses: RunStatuses): string {
  return ids
    .map((id) => `${requirementLink(id, statuses)} <span class="muted">(${htmlText(statusNote(id, statuses))})</span>`)
    .join(', ');
}

function meter(seen: number, documented: number): string {
  const percent = documented === 0 ? 100 : Math.round((seen / documented) * 100);
  return `<span class="meter"><span style="width:${percent}%"></span></span> ${seen}/${documented}`;
}

function operationRow(operation: OperationCoverage, statuses: RunStatuses): string {
  const chips = Object.entries(operation.statuses)
    .map(([status, count]) => `<span class="chip s${status[0]}">${htmlText(status)} ×${count}</span>`)
    .join(' ');
  const unseen =
    operation.unseenStatuses.length === 0
      ? ''
      : `<br><span class="muted">not seen: ${htmlText(operation.unseenStatuses.join(', '))}</span>`;
  return `<tr class="${operation.exercised ? '' : 'gap'}"><td class="status ${operation.exercised ? 'pass' : 'fail'}">${operation.exercised ? 'yes' : 'no'}</td><td><code>${htmlText(operation.method)} ${htmlText(operation.path)}</code><br><span class="muted">${htmlText(operation.operationId)}</span></td><td>${operation.calls}</td><td>${chips}${unseen}</td><td>${requirementLinks(operation.requirements, statuses)}</td></tr>`;
}

function itemRows(items: readonly ItemCoverage[], statuses: RunStatuses): string {
  return items
    .map(
      (item) =>
        `<tr class="${item.seen === 0 ? 'gap' : ''}"><td><code>${htmlText(item.name)}</code>${item.documented ? '' : ' <span class="muted">(not in the contract)</span>'}</td><td>${item.seen}</td><td>${requirementLinks(item.requirements, statuses)}</td></tr>`,
    )
    .join('');
}

export function coverageSection(coverage: Coverage, statuses: RunStatuses = new Map()): string {
  const counts = (Object.keys(coverageLabels) as CoverageKind[])
    .map(
      (kind) =>
        `<tr><td>${htmlText(coverageLabels[kind])}</td><td>${meter(coverage.summary[kind].seen, coverage.summary[kind].documented)}</td></tr>`,
    )
    .join('');
  const gaps =
    coverage.gaps.length === 0
      ? '<p class="pass">No gap: the run exercised everything the contract documents.</p>'
      : `<table><thead><tr><th>kind</th><th>not seen</th><th>requirement that would cover it</th></tr></thead><tbody>${coverage.gaps
          .map(
            (gap) =>
              `<tr><td>${htmlText(gapLabels[gap.kind])}</td><td><code>${htmlText(gap.item)}</code></td><td>${gap.requirements.length === 0 ? htmlText(coveredBy(gap)) : gapRequirements(gap.requirements, statuses)}</td></tr>`,
          )
          .join('')}</tbody></table>`;
  const items = itemKinds
    .map(
      (kind) =>
        `<details><summary>${htmlText(coverageLabels[kind])} (${coverage.summary[kind].seen}/${coverage.summary[kind].documented})</summary><table><thead><tr><th>item</th><th>seen</th><th>requirements</th></tr></thead><tbody>${itemRows(coverage[kind], statuses)}</tbody></table></details>`,
    )
    .join('\n');
  return `<section id="coverage"><h2>Coverage of the contract</h2>
<table class="coverage-counts"><tbody>${counts}</tbody></table>
<h3>Gaps (${coverage.gaps.length})</h3>${gaps}
<details><summary>Operations (${coverage.summary.operations.seen}/${coverage.summary.operations.documented} answered with a success)</summary><table><thead><tr><th>success</th><th>operation</th><th>calls</th><th>statuses</th><th>requirements</th></tr></thead><tbody>${coverage.operations.map((operation) => operationRow(operation, statuses)).join('')}</tbody></table></details>
${items}</section>`;
}

export const coverageStyle = `
.meter{display:inline-block;width:120px;height:8px;background:#e4e7ee;border-radius:4px;vertical-align:middle;overflow:hidden}.meter span{display:block;height:100%;background:#1f7a4a}
.chip{display:inline-block;border-radius:3px;padding:0 5px;margin:1px;font-size:12px;background:#e4e7ee}.chip.s2{background:#d5efe0}.chip.s4{background:#fbe3c4}.chip.s5{background:#f6d1ce}
tr.gap td{background:#fff7f6}h3{font-size:14px;margin:16px 0 6px}.coverage-counts{width:auto}`;
