/**
 * Text made safe inside the markup the kit writes: the reports (junit.xml, report.html) of the suites and
 * the proxy, and the reference server's share page. A leaf: it imports nothing, and every layer may use it.
 * @module
 */

/**
 * Text for XML 1.0 content and quoted attributes: the five predefined entities, and the characters its
 * `Char` production cannot carry at all dropped (tab, line feed and carriage return are the only controls
 * it allows).
 */
export function xmlText(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', '&quot;')
      .replaceAll("'", '&apos;')
  );
}

/** Text for HTML content and quoted attributes (HTML Living Standard §13.1.2.6: `&`, `<`, `>`, `"`, `'`). */
export function htmlText(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
