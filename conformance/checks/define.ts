/**
 * How a check module declares its checks: `const check = checksOf('auth')`, then
 * `check('missing-token', ['AUTH-001'], { title, run })` for the check `auth.missing-token`, which judges
 * AUTH-001. The module's category is written once, and so are the preconditions its checks share
 * (`checksOf('lifecycle', { preconditions: ['live'] })`): a check states its own only where they differ.
 * A check runs in the `main` phase unless it says so. The requirement IDs are the one place a check and a
 * requirement are linked: the registry derives each requirement's checks from them.
 * @module
 */
import type { Check, CheckContext, Phase, PreconditionName } from '../harness/check.js';
import type { Category } from '../requirements/types.js';

export interface CheckDefinition {
  title: string;
  /** What the check needs of the target; the category's shared preconditions when left out. */
  preconditions?: readonly PreconditionName[];
  phase?: Phase;
  run: (ctx: CheckContext) => Promise<void>;
}

/** What every check of a category shares unless it states otherwise. */
export interface CategoryDefaults {
  preconditions?: readonly PreconditionName[];
}

/** The declaration of the checks of `category`, each named `<category>.<name>`, with the requirements it judges. */
export function checksOf(
  category: Category,
  defaults: CategoryDefaults = {},
): (name: string, requirements: readonly string[], definition: CheckDefinition) => Check {
  return (name, requirements, { title, preconditions = defaults.preconditions ?? [], phase = 'main', run }) => ({
    name: `${category}.${name}`,
    category,
    title,
    requirements,
    preconditions,
    phase,
    run,
  });
}

/**
 * A check body run with the target's clock at real speed, for checks whose waits are measured in real
 * time (a long-poll bound, a guessing window, a stream that must close by itself).
 */
export function atRealSpeed(run: (ctx: CheckContext) => Promise<void>): (ctx: CheckContext) => Promise<void> {
  return (ctx) => ctx.clock.withScale(1, () => run(ctx));
}
