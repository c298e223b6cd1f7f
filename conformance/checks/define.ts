/**
 * How a check module declares its checks: `const check = checksOf('auth')`, then
 * `check('missing-token', { title, requirements, run })` for the check `auth.missing-token`. The module's
 * category is written once; a check runs in the `main` phase with no precondition unless it says so.
 * @module
 */
import type { Check, CheckContext, Phase, PreconditionName } from '../harness/check.js';
import type { Category } from '../requirements/types.js';

export interface CheckDefinition {
  title: string;
  /** The IDs of the requirements it judges; the registry's list of each requirement's checks is derived from these. */
  requirements: readonly string[];
  preconditions?: readonly PreconditionName[];
  phase?: Phase;
  run: (ctx: CheckContext) => Promise<void>;
}

/** The declaration of the checks of `category`, each named `<category>.<name>`. */
export function checksOf(category: Category): (name: string, definition: CheckDefinition) => Check {
  return (name, { title, requirements, preconditions = [], phase = 'main', run }) => ({
    name: `${category}.${name}`,
    category,
    title,
    requirements,
    preconditions,
    phase,
    run,
  });
}
