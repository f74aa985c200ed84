import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The key subscription tokens are derived with: SUBSCRIPTION_KEY, else (outside production, which
 * requires it) a random key kept in DATA_DIR/subscription.key, made on the first start, so that the
 * links a developer's server shows stay the same across restarts. Never in the database: a copy of
 * the database alone does not give the links away.
 */
export function loadSubscriptionKey(config: {
  subscriptionKey: string | undefined;
  dataDir: string;
}): string {
  if (config.subscriptionKey) return config.subscriptionKey;
  const file = path.join(config.dataDir, 'subscription.key');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process started at the same moment and made it: theirs is the key.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readFileSync(file, 'utf8').trim();
}
