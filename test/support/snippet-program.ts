/**
 * The TypeScript snippets of the docs, as a reader would use them: type-checked strictly against Node's
 * types, then compiled to an ES module the test can import or run.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ts from 'typescript';
import { packageRoot } from '../../src/contract/paths.js';

/** The strict compiler's complaints about the program rooted at `file`; none for a snippet that compiles. */
export function strictDiagnostics(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    // The snippet is checked, not the declaration files it reads.
    skipLibCheck: true,
    lib: ['lib.es2022.d.ts'],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    typeRoots: [join(packageRoot, 'node_modules', '@types')],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

/** Writes `source` compiled to an ES module at `file`. */
export async function writeModule(file: string, source: string): Promise<void> {
  await writeFile(
    file,
    ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } })
      .outputText,
  );
}
