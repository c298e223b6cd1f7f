/**
 * Typed stubs for the operations of the contract that have no handler yet (`boardkit scaffold-handlers`).
 * The handler map is typed from the generated `operations`, so after an operation is added to the
 * contract and the types are regenerated, the map no longer compiles until it has a handler for it. A
 * stub is that handler's module: typed `Handler<'operationId'>`, so that whatever its body comes to
 * return must be one of the operation's documented responses, and answering `501 Not Implemented` until
 * it is written. A stub never replaces a file that exists.
 * @module
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { aliasOf } from '../../contract/extensions.js';
import type { OperationObject, ResponseObject } from '../../contract/openapi-objects.js';
import type { OpenApiDocument } from '../../contract/load.js';
import { listOperations, type OperationEntry } from '../../contract/operations.js';
import { childPointer, resolve } from '../../contract/pointer.js';
import { internalError } from '../core/internal-errors.js';

export interface HandlerStub {
  operationId: string;
  /** The module's file name, the operationId in kebab case (`listSessionTags` → `list-session-tags.ts`). */
  file: string;
  content: string;
  /** The lines that put it in the handler map (src/server/http/handlers/index.ts). */
  mapEntry: { importLine: string; entry: string };
}

/** A module specifier as the stub writes it (built, so that the import rules' scan of this file skips it). */
function quoted(specifier: string): string {
  return `'${specifier}'`;
}

function kebabCase(operationId: string): string {
  return operationId.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`).replace(/^-/, '');
}

/** `200 application/json: #/components/schemas/Plan` for each documented response. */
function documentedResponses(document: OpenApiDocument, entry: OperationEntry): string[] {
  return Object.keys(entry.operation.responses ?? {}).map((status) => {
    const response = resolve<ResponseObject>(document, childPointer(entry.pointer, 'responses', status));
    const media = Object.entries(response.node.content ?? {}).map(([type, content]) => {
      const ref = (content.schema as { $ref?: string } | undefined)?.$ref;
      return ref === undefined ? type : `${type} (${ref})`;
    });
    return `\`${status}\` ${media.length === 0 ? 'no body' : media.join(', ')}`;
  });
}

function stubOf(document: OpenApiDocument, entry: OperationEntry & { operationId: string }): HandlerStub {
  const { operationId } = entry;
  const file = `${kebabCase(operationId)}.ts`;
  const operation: OperationObject = entry.operation;
  const summary = operation.summary === undefined ? '' : `: ${operation.summary}`;
  const alias = aliasOf(operation);
  const content = [
    '/**',
    ` * \`${entry.method.toUpperCase()} ${entry.path}\` (\`${operationId}\`)${summary}.`,
    ' *',
    ' * Scaffolded by `boardkit scaffold-handlers`. Until it is written it answers `501 Not Implemented`,',
    ' * which response checking reports, as no operation documents a 501. The handler is typed by the',
    ' * operation, so what it returns must be one of the documented responses:',
    ...documentedResponses(document, entry).map((line) => ` * - ${line}`),
    ...(alias === undefined
      ? []
      : [' *', ` * An alias of \`${alias}\`: the map may give it that operation's handler.`]),
    ' * @module',
    ' */',
    `import type { Handler } from ${quoted('../../ports/handlers.js')};`,
    `import { notImplemented } from ${quoted('../not-implemented.js')};`,
    '',
    `export const ${operationId}: Handler<'${operationId}'> = () => notImplemented('${operationId}');`,
    '',
  ].join('\n');
  return {
    operationId,
    file,
    content,
    mapEntry: {
      importLine: `import { ${operationId} } from ${quoted(`./${file.replace(/\.ts$/, '.js')}`)};`,
      entry: `${operationId},`,
    },
  };
}

/**
 * A stub for each operation of `paths` that is not in `handled`; with `only`, for those operationIds
 * alone (an id the contract does not have, or one that has a handler, is an error).
 */
export function handlerStubs(
  document: OpenApiDocument,
  handled: ReadonlySet<string>,
  only: readonly string[] = [],
): HandlerStub[] {
  const operations = listOperations(document).filter(
    (entry): entry is OperationEntry & { operationId: string } =>
      entry.source === 'paths' && entry.operationId !== undefined,
  );
  for (const id of only) {
    if (!operations.some((entry) => entry.operationId === id)) {
      throw internalError('BOARDKIT_CONFIG_UNKNOWN_OPERATION', id);
    }
    if (handled.has(id)) {
      throw internalError('BOARDKIT_CONFIG_OPERATION_HANDLED', id);
    }
  }
  return operations
    .filter((entry) => !handled.has(entry.operationId) && (only.length === 0 || only.includes(entry.operationId)))
    .map((entry) => stubOf(document, entry));
}

/** Writes each stub into `folder`, leaving any file that exists as it is. */
export async function writeHandlerStubs(
  stubs: readonly HandlerStub[],
  folder: string,
): Promise<{ written: HandlerStub[]; kept: HandlerStub[] }> {
  await mkdir(folder, { recursive: true });
  const written: HandlerStub[] = [];
  const kept: HandlerStub[] = [];
  for (const stub of stubs) {
    const file = join(folder, stub.file);
    if (existsSync(file)) {
      kept.push(stub);
      continue;
    }
    await writeFile(file, stub.content, { flag: 'wx' });
    written.push(stub);
  }
  return { written, kept };
}
