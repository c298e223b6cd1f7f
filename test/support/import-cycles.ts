/**
 * The import circles of a set of TypeScript modules: Tarjan's strongly connected components over the
 * import graph. Every edge counts, `import type` and `export … from` included, since a circle of types
 * still ties the modules' designs together. `.js` specifiers resolve to the `.ts` source they compile from.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const specifierPattern = /(?:^|[\s;])(?:import|export)\s[^'";]*?from\s*'([^']+)'|import\(\s*'([^']+)'\s*\)/g;

/** The modules among `files` that `file` imports, with relative specifiers resolved. */
export function localImports(file: string, files: ReadonlySet<string>): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(specifierPattern)]
    .map((match) => match[1] ?? match[2] ?? '')
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => {
      const target = resolve(dirname(file), specifier);
      const source = target.replace(/\.js$/, '.ts');
      return existsSync(source) ? source : existsSync(`${target}.ts`) ? `${target}.ts` : target;
    })
    .filter((target) => files.has(target));
}

/** Each strongly connected component of more than one module, or of one that imports itself. */
export function importCycles(files: readonly string[]): string[][] {
  const known = new Set(files);
  const edges = new Map(files.map((file) => [file, localImports(file, known)]));
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;

  function visit(file: string): void {
    index.set(file, next);
    lowLink.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowLink.set(file, Math.min(lowLink.get(file)!, lowLink.get(target)!));
      } else if (onStack.has(target)) {
        lowLink.set(file, Math.min(lowLink.get(file)!, index.get(target)!));
      }
    }
    if (lowLink.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || (edges.get(file) ?? []).includes(file)) {
        cycles.push(component.sort());
      }
    }
  }

  for (const file of files) {
    if (!index.has(file)) {
      visit(file);
    }
  }
  return cycles;
}
