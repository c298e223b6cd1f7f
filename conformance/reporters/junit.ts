/**
 * junit.xml: one test suite per category, one test case per requirement (the format CI systems read:
 * Jenkins/Surefire's schema, also read by GitHub Actions and GitLab). A failed requirement is a
 * <failure>, an errored one an <error>, a skipped one <skipped> with its reason and remedy. The verdict
 * (conformant, not conformant, incomplete) is a property of the first suite, `conformance.verdict`.
 * @module
 */
import { type RequirementResult, type RunResult, verdictLine } from '../harness/results.js';
import { xmlText } from '../../src/markup.js';
import { reportedCategories } from '../requirements/types.js';

function details(result: RequirementResult): string {
  return result.observations
    .filter((observation) => observation.outcome === result.status)
    .map((observation) => {
      const lines = [`[${observation.check}] ${observation.message}`];
      if (observation.expected !== undefined) {
        lines.push(`  expected: ${JSON.stringify(observation.expected)}`);
      }
      if (observation.got !== undefined) {
        lines.push(`  got:      ${JSON.stringify(observation.got)}`);
      }
      for (const exchange of observation.evidence.slice(0, 3)) {
        lines.push(
          `  ${exchange.inbound === true ? 'received' : 'sent'}: ${exchange.request.method} ${exchange.request.url} → ${exchange.response?.status ?? exchange.error ?? 'no response'}`,
        );
      }
      return lines.join('\n');
    })
    .join('\n');
}

function testCase(result: RequirementResult): string {
  const name = xmlText(`${result.id} [${result.level}] ${result.statement}`);
  const open = `    <testcase classname="conformance.${result.category}" name="${name}" time="0">`;
  const why =
    result.reason ??
    result.observations.find((observation) => observation.outcome === result.status)?.message ??
    result.status;
  const message = xmlText(
    `${why}${result.remedy === undefined ? '' : `; to check it: ${result.remedy}`}`.slice(0, 800),
  );
  switch (result.status) {
    case 'pass':
      return `${open}</testcase>`;
    case 'skip':
      return `${open}\n      <skipped message="${message}"/>\n    </testcase>`;
    case 'fail':
      return `${open}\n      <failure message="${message}" type="${result.level}">${xmlText(details(result))}</failure>\n    </testcase>`;
    case 'error':
      return `${open}\n      <error message="${message}" type="error">${xmlText(details(result))}</error>\n    </testcase>`;
  }
}

export function renderJunit(result: RunResult): string {
  const suites = reportedCategories
    .map((category) => result.requirements.filter((requirement) => requirement.category === category))
    .filter((group) => group.length > 0)
    .map((group) => {
      const count = (status: string): number => group.filter((requirement) => requirement.status === status).length;
      const category = group[0]!.category;
      return [
        `  <testsuite name="conformance.${category}" tests="${group.length}" failures="${count('fail')}" errors="${count('error')}" skipped="${count('skip')}" time="0" timestamp="${result.startedAt.slice(0, 19)}">`,
        ...group.map(testCase),
        '  </testsuite>',
      ].join('\n');
    });
  const total = result.summary.requirements;
  const property = (name: string, value: string): string =>
    `      <property name="${name}" value="${xmlText(value)}"/>`;
  // Surefire's schema allows a suite of properties alone: the verdict stays out of the test counts.
  const verdict = [
    `  <testsuite name="conformance.verdict" tests="0" failures="0" errors="0" skipped="0" time="0" timestamp="${result.startedAt.slice(0, 19)}">`,
    '    <properties>',
    property('verdict', result.summary.verdict),
    property('verdict-line', verdictLine(result.summary)),
    property('exit-code', String(result.exitCode)),
    ...result.summary.mustUnchecked.map((one) => property(`not-checked.${one.id}`, one.remedy)),
    '    </properties>',
    '  </testsuite>',
  ].join('\n');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlText(`${result.suite.name} ${result.suite.version} against ${result.target.baseUrl}`)}" tests="${total.total}" failures="${total.fail}" errors="${total.error}" skipped="${total.skip}" time="${(result.durationMs / 1000).toFixed(3)}">`,
    verdict,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
