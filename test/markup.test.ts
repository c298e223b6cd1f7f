/**
 * The escaping of src/markup.ts, which every report and the share page rely on: a value read back by an
 * XML or HTML parser is the text that went in, less what XML 1.0 cannot carry.
 */
import { describe, expect, test } from 'vitest';
import { htmlText, xmlText } from '../src/markup.js';

describe('xmlText', () => {
  test('escapes the five predefined entities, ampersands first', () => {
    expect(xmlText(`<a href="x">Tom & Jerry's &amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s &amp;amp;&lt;/a&gt;',
    );
  });

  test("drops what XML 1.0's Char production excludes and keeps tab, line feed and carriage return", () => {
    expect(xmlText('a\u0000b\u001bc\t\n\rd\uD800e\uFFFEf')).toBe('abc\t\n\rdef');
    expect(xmlText('emoji \u{1F600} and \uE000')).toBe('emoji \u{1F600} and \uE000');
  });
});

describe('htmlText', () => {
  test('escapes what could end a text or a quoted attribute', () => {
    expect(htmlText(`<script>alert("x" + 'y')</script> & more`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot; + &#39;y&#39;)&lt;/script&gt; &amp; more',
    );
  });
});
