// Where a node of the resolved document was written.
//
// Spectral hands rule functions the *resolved* document: every `$ref` is replaced by its target and the
// reference itself is gone. A rule about how the source is written (a `oneOf` branch must be a `$ref`, a
// schema is a named component) has to look at the file the node came from. Rules with `resolved: false`
// do not help for a split contract: they only see the root file, whose paths are all `$ref`s to other
// files. So these helpers ask Spectral's document inventory which file and which position a resolved path
// maps to, and read the raw (unresolved) node there.

/** Reads `path` (an array of keys) inside `data`; `undefined` when any step is missing. */
export function getIn(data, path) {
  let node = data;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = node[key];
  }
  return node;
}

/**
 * The source of the resolved node at `path`: `{ document, path, node }`, where `document` is the Spectral
 * Document of the file it was written in (`document.source` is its file name), `path` its position in that
 * file and `node` the raw node there, `$ref`s not followed. `null` when the position cannot be told.
 */
export function sourceOf(context, path) {
  const item = context.documentInventory.findAssociatedItemForPath(path, true);
  if (item === null || item === undefined) return null;
  // Spectral falls back to the closest existing parent when a path does not exist in the source.
  const missing = item.missingPropertyPath ?? [];
  if (missing.length > item.path.length) return null;
  return { document: item.document, path: item.path, node: getIn(item.document.data, item.path) };
}

/** Whether the resolved schema at `path` is a named component: a whole file, or `components.schemas.<name>`. */
export function componentNameOf(context, path) {
  const source = sourceOf(context, path);
  if (source === null) return null;
  if (source.path.length === 3 && source.path[0] === 'components' && source.path[1] === 'schemas') {
    return String(source.path[2]);
  }
  if (source.path.length === 0 && source.document !== context.document && source.document.source) {
    return baseName(source.document.source);
  }
  return null;
}

function baseName(file) {
  const name = file.split(/[\\/]/).pop() ?? file;
  return name.replace(/\.(ya?ml|json)$/i, '');
}
