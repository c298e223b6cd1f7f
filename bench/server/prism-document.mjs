/**
 * The document Prism mocks in bench/server.mjs: the bundled contract with the server's own answers as the
 * only examples of the measured operations, so that Prism sends the same JSON as the server and the bare
 * route (the contract's own examples are a single session and a two-session page, far less to send than
 * fifty).
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../support/autocannon.mjs';

/** Writes the document into `folder` and returns its path; `answers` are `{ template, body }` of GETs. */
export function prismDocument(answers, folder) {
  const document = JSON.parse(readFileSync(join(root, 'openapi/dist/openapi.json'), 'utf8'));
  for (const { template, body } of answers) {
    const media = document.paths[template].get.responses['200'].content['application/json'];
    delete media.example;
    media.examples = { server: { summary: "The reference server's answer", value: JSON.parse(body) } };
  }
  const file = join(folder, 'prism-mock.json');
  writeFileSync(file, JSON.stringify(document));
  return file;
}
