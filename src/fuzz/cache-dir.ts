/**
 * The user's cache directory, where the kit keeps what it installs on first use (the managed
 * Schemathesis environment): `$XDG_CACHE_HOME/boardkit` when that variable holds an absolute path (the XDG
 * Base Directory specification says a relative one is invalid and must be ignored), else the platform's
 * usual place. Never inside the project or the installed package.
 * @module
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export function userCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) {
    return join(xdg, 'boardkit');
  }
  if (platform === 'darwin') {
    return join(home, 'Library', 'Caches', 'boardkit');
  }
  if (platform === 'win32') {
    return join(env['LOCALAPPDATA'] ?? join(home, 'AppData', 'Local'), 'boardkit', 'Cache');
  }
  return join(home, '.cache', 'boardkit');
}
