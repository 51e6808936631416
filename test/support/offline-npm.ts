import { join } from 'node:path';

/**
 * The environment for npm in a scratch folder `work`: its own HOME and cache, offline
 * (a packed Leopold has no runtime dependencies, so installing its tarball needs no
 * registry), and quiet (no audit, fund or update notices).
 */
export function offlineNpmEnv(work: string): Record<string, string> {
  return {
    HOME: join(work, 'home'),
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}
