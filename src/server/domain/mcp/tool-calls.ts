/**
 * Calls of the consult tool: the arguments validated against `ConsultTurnInput` with the contract's own
 * validator, the turn taken, and the output checked against `ConsultTurnOutput`. A refusal is a tool
 * error (MCP "Tools": `isError: true`, so the model sees it) whose text is the RFC 9457 problem the REST
 * API would answer: `invalid-request`, `not-found`, `conflict`, `insufficient-credits`.
 * @module
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ProblemError } from '../../core/problems.js';
import { violationsOf } from '../../core/problems.js';
import type { ResponseViolation } from '../../ports/app.js';
import type { Workspace } from '../../ports/records.js';
import type { Services } from '../../ports/services.js';
import { takeConsultTurn, type ConsultTurnRequest } from '../sessions/consult-turns.js';
import type { ConsultTool } from './consult-tool.js';

export interface ToolCallChecks {
  /** Check each output against the contract; an output that breaks it becomes an `internal-error`. */
  validateOutput: boolean;
  onViolation?: (violation: ResponseViolation) => void;
  onError?: (error: unknown) => void;
}

function toolError(services: Services, tool: ConsultTool, problem: ProblemError): CallToolResult {
  const body = services.problems.body(problem.status, problem.detail, problem.extensions, tool.path);
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

export function callConsultTool(
  services: Services,
  workspace: Workspace,
  tool: ConsultTool,
  args: unknown,
  checks: ToolCallChecks,
): CallToolResult {
  const input = services.validator.validate(tool.inputPointer, args);
  if (!input.valid) {
    const errors = violationsOf(input.errors, '#/arguments');
    return toolError(
      services,
      tool,
      new ProblemError(400, `The arguments of ${tool.name} do not match ConsultTurnInput.`, { errors }),
    );
  }
  try {
    const output = takeConsultTurn(services, workspace, args as ConsultTurnRequest);
    if (checks.validateOutput) {
      const result = services.validator.validate(tool.outputPointer, output);
      if (!result.valid) {
        const problems = violationsOf(result.errors, '#/output').map(
          (violation) => `${violation.pointer} ${violation.detail}`,
        );
        checks.onViolation?.({ operationId: tool.name, status: 200, problems });
        return toolError(
          services,
          tool,
          new ProblemError(500, `The tool output broke the contract: ${problems.slice(0, 3).join('; ')}.`),
        );
      }
    }
    // Structured content, and the same JSON as text for clients that read only text (MCP "Tools").
    return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
  } catch (error) {
    if (error instanceof ProblemError) {
      return toolError(services, tool, error);
    }
    checks.onError?.(error);
    return toolError(services, tool, new ProblemError(500, 'The server could not complete the turn.'));
  }
}
