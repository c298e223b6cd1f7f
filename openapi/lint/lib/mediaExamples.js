// Collects the named examples of every media type in a resolved OpenAPI document: request bodies and
// responses of paths, webhooks and components (`content.<media type>.examples.<name>.value`).
// Schemas, literal data and `x-` extensions are not entered: media types never sit inside them.

const SKIPPED_KEYS = new Set(['schema', 'schemas', 'example', 'examples', 'default', 'const', 'enum']);

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `[{ name, value, path }]`, `path` pointing at the example's `value` in the resolved document. */
export function mediaExamples(document) {
  const found = [];
  const seen = new Set();
  const walk = (node, path) => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, [...path, index]));
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'content' && isObject(value)) {
        for (const [mediaType, media] of Object.entries(value)) {
          if (!isObject(media) || !isObject(media.examples)) continue;
          for (const [name, example] of Object.entries(media.examples)) {
            if (isObject(example) && 'value' in example) {
              found.push({ name, value: example.value, path: [...path, key, mediaType, 'examples', name, 'value'] });
            }
          }
        }
        continue;
      }
      if (SKIPPED_KEYS.has(key) || key.startsWith('x-')) continue;
      walk(value, [...path, key]);
    }
  };
  walk(document, []);
  return found;
}
