/**
 * The MCP tool `service.consult.message` as the contract describes it (root `x-mcp-tools`): its name,
 * description, where it is served, and its input and output schemas made self-contained for MCP clients
 * (the contract's `#/components/schemas/…` references become `#/$defs/…`).
 * @module
 */
import { mcpTools } from '../../../contract/extensions.js';
import type { OpenApiDocument } from '../../../contract/load.js';
import { resolve } from '../../../contract/pointer.js';
import { internalError } from '../../core/internal-errors.js';

export const consultToolName = 'service.consult.message';

/** A JSON Schema object, as MCP's `tools/list` carries it. */
export type JsonSchemaObject = { type: 'object'; [keyword: string]: unknown };

export interface ConsultTool {
  name: string;
  description: string;
  /** Where the MCP server is mounted, relative to `{base_url}` (`/mcp`). */
  path: string;
  /** Contract pointers of the input and output schemas, for the contract's own validator. */
  inputPointer: string;
  outputPointer: string;
  inputSchema: JsonSchemaObject;
  outputSchema: JsonSchemaObject;
}

const componentPrefix = '#/components/schemas/';

/**
 * The schema at `pointer` with every component it reaches copied into `$defs`. A client validates
 * with the schema alone, so nothing may point back into the OpenAPI document.
 */
export function selfContainedSchema(document: OpenApiDocument, pointer: string): JsonSchemaObject {
  const defs: Record<string, unknown> = {};
  function copy(node: unknown): unknown {
    if (Array.isArray(node)) {
      return node.map(copy);
    }
    if (node === null || typeof node !== 'object') {
      return node;
    }
    const entries = Object.entries(node).map(([key, value]) => {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(componentPrefix)) {
        const name = value.slice(componentPrefix.length);
        if (!(name in defs)) {
          // Claimed before it is copied, so a schema that reaches itself is copied once.
          defs[name] = true;
          defs[name] = copy(resolve(document, value).node);
        }
        return [key, `#/$defs/${name}`];
      }
      return [key, copy(value)];
    });
    return Object.fromEntries(entries);
  }
  const root = copy(resolve(document, pointer).node) as Record<string, unknown>;
  if (root['type'] !== 'object') {
    throw internalError('BOARDKIT_CONTRACT_MCP_SCHEMA_NOT_OBJECT', pointer);
  }
  return { ...root, type: 'object', ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}) };
}

/** The consult tool of the contract; the contract must describe it. */
export function consultTool(document: OpenApiDocument): ConsultTool {
  const entry = mcpTools(document).find((tool) => tool.name === consultToolName);
  if (entry === undefined) {
    throw internalError('BOARDKIT_CONTRACT_MCP_TOOL_MISSING', consultToolName);
  }
  const path = entry.endpointPath;
  if (path === undefined) {
    throw internalError('BOARDKIT_CONTRACT_MCP_TOOL_NO_PATH', consultToolName);
  }
  return {
    name: entry.name,
    description: entry.description.trim(),
    path,
    inputPointer: entry.inputRef,
    outputPointer: entry.outputRef,
    inputSchema: selfContainedSchema(document, entry.inputRef),
    outputSchema: selfContainedSchema(document, entry.outputRef),
  };
}
