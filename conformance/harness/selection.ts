/**
 * `--only`: requirement IDs (`IDEM-003`), ID prefixes (`IDEM`) or category names (`idempotency`), and
 * which checks a selection needs.
 * @module
 */
import type { Check } from './check.js';
import { categoryPrefixes, type Requirement } from '../requirements/types.js';
import { SuiteError } from './target.js';

/** The requirements a selection names; every requirement when `only` is empty. */
export function selectRequirements(all: readonly Requirement[], only: readonly string[] | undefined): Requirement[] {
  const tokens = (only ?? [])
    .flatMap((token) => token.split(','))
    .map((token) => token.trim())
    .filter((token) => token !== '');
  if (tokens.length === 0) {
    return [...all];
  }
  const selected = new Set<Requirement>();
  for (const token of tokens) {
    const lower = token.toLowerCase();
    const matches = all.filter(
      (requirement) =>
        requirement.id.toLowerCase() === lower ||
        requirement.category === lower ||
        categoryPrefixes[requirement.category].toLowerCase() === lower,
    );
    if (matches.length === 0) {
      throw new SuiteError(`--only ${token}: no requirement, ID prefix or category of that name`);
    }
    matches.forEach((requirement) => selected.add(requirement));
  }
  return all.filter((requirement) => selected.has(requirement));
}

/**
 * The checks that test a selection. A requirement tested by a sweep also brings in every check of its
 * category, so the sweep has that category's traffic to judge.
 */
export function checksFor(selected: readonly Requirement[], all: readonly Check[]): Check[] {
  const ids = new Set(selected.map((requirement) => requirement.id));
  const sweptCategories = new Set(
    all
      .filter((check) => check.phase === 'sweep' && check.requirements.some((id) => ids.has(id)))
      .map((check) => check.category),
  );
  return all.filter((check) => check.requirements.some((id) => ids.has(id)) || sweptCategories.has(check.category));
}
