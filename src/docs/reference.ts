/**
 * The API reference: the bundled contract rendered by Redocly (Redoc 3) as one self-contained HTML page,
 * `docs/site/index.html`, that renders with no network access. Operations, webhooks and the event
 * streams' event schemas all come from the contract. The page is built, not committed.
 * @module
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redoclyBuildDocs } from '../bundle/redocly.js';
import { artefactPaths, packageRoot } from '../contract/paths.js';
import { localiseAssets } from './offline.js';

export const referenceTitle = 'Decision-Board Service API reference';

/** Where `boardkit docs` writes the reference by default, relative to the folder it runs in. */
export const defaultSitePath = join('docs', 'site');

/** Redoc reads this option from the page; Redocly sets it from `telemetry: off` / `REDOCLY_TELEMETRY`. */
const telemetryOff = '"disableTelemetry":true';

/**
 * Builds the reference of `document` (a bundled YAML file; the packaged contract by default) into
 * `siteDir` and returns the path of its page.
 */
export async function buildReference(
  siteDir: string,
  document: string = join(packageRoot, artefactPaths.bundledYaml),
): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), 'boardkit-docs-'));
  try {
    const rendered = join(scratch, 'index.html');
    await redoclyBuildDocs(document, rendered, referenceTitle);
    const html = localiseAssets(await readFile(rendered, 'utf8'));
    if (!html.includes(telemetryOff)) {
      throw new Error('the rendered reference does not disable Redoc telemetry; is REDOCLY_TELEMETRY honoured?');
    }
    await mkdir(siteDir, { recursive: true });
    const page = join(siteDir, 'index.html');
    await writeFile(page, html);
    return page;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
