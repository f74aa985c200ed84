import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSubscriptionKey } from './subscription-key.ts';

describe('the subscription key', () => {
  const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'skyway-key-')), 'data');
  afterAll(() => rmSync(path.dirname(dataDir), { recursive: true, force: true }));

  it('is SUBSCRIPTION_KEY when set', () => {
    expect(loadSubscriptionKey({ subscriptionKey: 'k'.repeat(40), dataDir })).toBe('k'.repeat(40));
  });

  it('is otherwise made once in DATA_DIR, readable by its owner only, and the same on every start', () => {
    const first = loadSubscriptionKey({ subscriptionKey: undefined, dataDir });
    expect(first).toMatch(/^[\w-]{43}$/);
    expect(statSync(path.join(dataDir, 'subscription.key')).mode & 0o777).toBe(0o600);
    expect(loadSubscriptionKey({ subscriptionKey: undefined, dataDir })).toBe(first);
  });
});
