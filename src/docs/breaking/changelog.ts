/**
 * Breaking changes declared in the contract's changelog (`openapi/CHANGELOG.md`). Under the heading
 * `## Unreleased`, a list item that starts with two code spans declares one change: the rule and either
 * the operation or the component schema it affects, then says why and what clients must do:
 *
 *     - `property-removed` `GET /v1/sessions/{id}`: `memo.dissent` moved to ...
 *     - `enum-value-removed` `SessionStatus`: ...
 * @module
 */

export interface Declaration {
  rule: string;
  /** An operation (`GET /v1/sessions/{id}`, `webhook session.complete`) or a component schema name. */
  subject: string;
}

/** The text under `## Unreleased`, up to the next second-level heading. */
function unreleasedSection(changelog: string): string {
  const lines = changelog.split('\n');
  const start = lines.findIndex((line) => /^##\s+Unreleased\b/i.test(line));
  if (start === -1) {
    return '';
  }
  const end = lines.findIndex((line, index) => index > start && /^##\s/.test(line));
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

export function declarations(changelog: string): Declaration[] {
  return [...unreleasedSection(changelog).matchAll(/^\s*[-*]\s+`([a-z-]+)`\s+`([^`]+)`/gm)].map((match) => ({
    rule: match[1] ?? '',
    subject: match[2] ?? '',
  }));
}

/** The part of a change a declaration names. */
export interface Declarable {
  rule: string;
  operation: string;
  component?: string;
}

export function isDeclared(change: Declarable, declared: readonly Declaration[]): boolean {
  return declared.some(
    (declaration) =>
      declaration.rule === change.rule &&
      (declaration.subject === change.operation || declaration.subject === change.component),
  );
}

/** The list item that would declare a change: by component when it sits in one, so one line covers all uses. */
export function declarationLine(change: Declarable): string {
  return `- \`${change.rule}\` \`${change.component ?? change.operation}\`: <what changed, why, and what clients must do>`;
}
