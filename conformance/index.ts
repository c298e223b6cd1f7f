/**
 * The conformance suite for implementations of the Decision-Board API: the requirement registry, the
 * checks, the runner and the reporters. `boardkit conformance` is its command line.
 * @module
 */
export {
  requirements,
  findRequirement,
  categories,
  type Requirement,
  type Level,
  type Category,
} from './requirements/index.js';
export { receiverRequirements, findReceiverRequirement } from './requirements/receiver.js';
export { checks, findCheck } from './checks/index.js';
export type { Check, CheckContext } from './harness/check.js';
export { runConformance, type RunOptions, type ProgressEvent } from './runner.js';
export { SuiteError } from './harness/target.js';
export { builtInProfiles, loadProfile, type Profile } from './harness/profiles.js';
export type { RunResult, RequirementResult, CheckResult } from './harness/results.js';
export { writeReports, reportFiles } from './reporters/index.js';
export { renderJson } from './reporters/json.js';
export { renderJunit } from './reporters/junit.js';
export { renderHtml } from './reporters/html.js';
export { progressLine, renderSummary } from './reporters/console.js';
