/**
 * The breaking-change guard: compares the contract now (`openapi/dist/openapi.json`) with the last
 * released copy kept in the repository (`openapi/released/v1.json`) and sorts every breaking change into
 * declared (in `openapi/CHANGELOG.md`) and undeclared. Breaking changes belong in `/v2`
 * (docs/versioning.md); one that must land in `/v1` anyway has to be declared.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseContract } from '../../contract/load.js';
import { bundledJson, packageRoot } from '../../contract/paths.js';
import { declarations, isDeclared } from './changelog.js';
import { breakingChanges } from './operations.js';
import type { BreakingChange } from './rules.js';

export { breakingChanges, contractChanges, isGuarded } from './operations.js';
export { declarationLine, declarations, isDeclared, type Declaration } from './changelog.js';
export {
  breakingRules,
  changeClasses,
  otherRules,
  policyRules,
  type BreakingChange,
  type BreakingRule,
  type ChangeClass,
  type ChangeRule,
  type ContractChange,
  type Direction,
} from './rules.js';
export { noticePeriods, type PolicyViolation } from './deprecation-policy.js';
export { reviewContract, reviewFails, type ContractReview, type ReviewedChange, type Verdict } from './review.js';
export {
  diffFormats,
  jsonReport,
  markdownReport,
  markdownMarker,
  textReport,
  type DiffFormat,
  type DiffReport,
} from './formats.js';
export { githubReport } from './github.js';
export { contractFile, contractVersion, type ContractVersion } from './contract-version.js';
export { SourceLocator, type SourceLocation } from './source-location.js';

export const releasePaths = {
  released: join(packageRoot, 'openapi', 'released', 'v1.json'),
  changelog: join(packageRoot, 'openapi', 'CHANGELOG.md'),
} as const;

export interface ReleaseCheckOptions {
  /** The released contract; `openapi/released/v1.json` by default. */
  base?: string;
  /** The contract now; `openapi/dist/openapi.json` by default. */
  head?: string;
  changelog?: string;
}

export interface ReleaseCheck {
  declared: BreakingChange[];
  undeclared: BreakingChange[];
}

export async function checkRelease(options: ReleaseCheckOptions = {}): Promise<ReleaseCheck> {
  const basePath = options.base ?? releasePaths.released;
  const headPath = options.head ?? bundledJson;
  const released = await readFile(basePath, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ENOENT'
      ? new Error(`no released contract at ${basePath} (a release copies openapi/dist/openapi.json there)`)
      : error;
  });
  const base = parseContract(released, basePath);
  const head = parseContract(await readFile(headPath, 'utf8'), headPath);
  const declared = declarations(await readFile(options.changelog ?? releasePaths.changelog, 'utf8'));
  const changes = breakingChanges(base, head);
  return {
    declared: changes.filter((change) => isDeclared(change, declared)),
    undeclared: changes.filter((change) => !isDeclared(change, declared)),
  };
}
