/**
 * Makes the rendered reference page fetch nothing from the network.
 *
 * Redocly's `--inlineBundle` embeds Redoc's scripts, yet the embedded code still names a few assets on
 * Redocly's CDNs that a browser would fetch at run time: the "API docs by" logo (always shown) and the
 * icon sets (used only by Redocly configurations with custom icons). The page must render on a machine
 * with no network at all, so each of those addresses is rewritten: the logos to a small inline image,
 * the icon sets to a folder next to the page (absent, so nothing is shown and nothing leaves the host).
 * @module
 */

/** Hosts whose assets a page fetches by itself: CDNs of Redocly, web fonts and common script CDNs. */
const assetHosts = [
  'cdn.redoc.ly',
  'cdn.redocly.com',
  'fonts.googleapis.com',
  'fonts.gstatic.com',
  'unpkg.com',
  'cdn.jsdelivr.net',
];

const assetUrl = new RegExp(
  `https?://(?:${assetHosts.map((host) => host.replaceAll('.', '\\.')).join('|')})/[^\\s"'\`)<>]*`,
  'g',
);

/** The attribution logo, drawn as text so that the credit stays visible without the CDN. */
const logo = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="16" viewBox="0 0 64 16">' +
    '<text x="0" y="12" font-family="sans-serif" font-size="12" font-weight="600" fill="#0044d4">Redoc</text></svg>',
)}`;

/** The local replacement of one remote asset address. */
function localAddress(url: string): string {
  const { pathname } = new URL(url);
  return /\/logo[^/]*\.svg$/.test(pathname) ? logo : `./assets${pathname}`;
}

/** The page with every remote asset address replaced by a local one. */
export function localiseAssets(html: string): string {
  return html.replace(assetUrl, localAddress);
}

/** The remote asset addresses a page still holds (none after `localiseAssets`). */
export function remoteAssets(html: string): string[] {
  return [...new Set(html.match(assetUrl) ?? [])];
}
