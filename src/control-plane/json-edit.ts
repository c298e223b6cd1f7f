/**
 * Editing a JSON text in place, the way a control plane changes what passes through the server: parse it,
 * let `edit` change the object, write it back. Text that is not a JSON object is left alone.
 * @module
 */

/** The JSON object a text holds, or `undefined`. */
export function jsonObjectOf(text: string): Record<string, unknown> | undefined {
  try {
    const json: unknown = JSON.parse(text);
    return json !== null && typeof json === 'object' ? (json as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The edited text, or `undefined` when the text is not a JSON object, `edit` fails on its shape, or `edit`
 * returns `false` (it made no change, so the text keeps its bytes).
 */
export function editJsonText(text: string, edit: (json: Record<string, unknown>) => unknown): string | undefined {
  const json = jsonObjectOf(text);
  try {
    return json === undefined || edit(json) === false ? undefined : JSON.stringify(json);
  } catch {
    // A body of another shape than the edit expects: left as it is.
    return undefined;
  }
}
