/**
 * Where a place of the bundled contract is written in the split source: the file and line a JSON Pointer
 * of the bundle leads to, following the source's references to other files. Components the root file
 * does not list are found where the bundler took them from, `components/<kind>/<Name>.yaml` beside the
 * root. A pointer to something the source no longer has leads to the nearest place it still has.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import { pointerTokens } from '../labels.js';

export interface SourceLocation {
  file: string;
  line: number;
}

interface Parsed {
  contents: YamlNode | null;
  lines: LineCounter;
}

/** Locates pointers in one split source, reading each file once. */
export class SourceLocator {
  private readonly files = new Map<string, Promise<Parsed>>();

  constructor(private readonly root: string) {}

  private parsed(file: string): Promise<Parsed> {
    let parsed = this.files.get(file);
    if (parsed === undefined) {
      parsed = readFile(file, 'utf8').then((text) => {
        const lines = new LineCounter();
        return { contents: parseDocument(text, { lineCounter: lines }).contents, lines };
      });
      this.files.set(file, parsed);
    }
    return parsed;
  }

  /** The file that a node standing for a `$ref` to another file (`{ $ref: ../x.yaml }`) leads to. */
  private static referencedFile(node: YamlNode | null, file: string): string | undefined {
    const ref = isMap(node) ? node.get('$ref') : undefined;
    return typeof ref === 'string' && !ref.startsWith('#')
      ? resolve(dirname(file), ref.split('#')[0] ?? '')
      : undefined;
  }

  async locate(pointer: string): Promise<SourceLocation> {
    const tokens = pointer === '#' ? [] : pointerTokens(pointer);
    let file = this.root;
    let { contents: node, lines } = await this.parsed(file);
    let line = 1;
    for (const [index, token] of tokens.entries()) {
      for (let next = SourceLocator.referencedFile(node, file); next !== undefined;) {
        file = next;
        ({ contents: node, lines } = await this.parsed(file).catch(() => ({ contents: null, lines })));
        line = 1;
        next = SourceLocator.referencedFile(node, file);
      }
      const pair = isMap(node)
        ? node.items.find((item) => isScalar(item.key) && String(item.key.value) === token)
        : undefined;
      if (pair === undefined && isSeq(node) && /^\d+$/.test(token) && node.items[Number(token)] !== undefined) {
        node = node.items[Number(token)] as YamlNode;
        line = lines.linePos(node.range?.[0] ?? 0).line;
        continue;
      }
      if (pair === undefined) {
        const [root, kind, name] = tokens;
        if (index === 2 && root === 'components' && kind !== undefined && name !== undefined && file === this.root) {
          file = join(dirname(this.root), 'components', kind, `${name}.yaml`);
          ({ contents: node, lines } = await this.parsed(file).catch(() => ({ contents: null, lines })));
          line = 1;
          if (node !== null) {
            continue;
          }
          file = this.root;
        }
        break;
      }
      node = pair.value as YamlNode | null;
      line = lines.linePos((pair.key as YamlNode).range?.[0] ?? 0).line;
    }
    return { file, line };
  }
}
