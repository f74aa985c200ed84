import { describe, expect, it } from 'vitest';
import { createServerDatabase, testDatabaseKind } from '../src/testing/test-database.ts';
import { GOALS, runInactiveBench } from './inactive-accounts-run.ts';

// `npm run bench:inactive` itself is not part of CI (it takes minutes): this runs all of it at a
// fifth of the quick mode's size, so that a change to the job, the mailer or the harness that breaks
// it shows here. Of its goals only those that do not depend on the machine are judged.
const SMOKE = { accounts: 2_000, toWarn: 500 };
describe.runIf(testDatabaseKind === 'postgres')('npm run bench:inactive', () => {
  it('seeds the accounts, runs the job, and reports every figure', async () => {
    const scratch = await createServerDatabase();
    try {
      const settings = { databaseUrl: scratch.url, ...SMOKE, deliveryTimeoutMs: 60_000 };
      const figures = await runInactiveBench(settings, () => undefined);

      expect(figures.result).toEqual({
        warned: SMOKE.toWarn,
        revoked: 0,
        cleared: 0,
        unmailed: 0,
        skipped: false,
      });
      expect(GOALS.warned.holds(figures, settings), 'every warning once').toBe(true);
      expect(GOALS.smtpConnectionsAtOnce.holds(figures, settings), 'SMTP connections').toBe(true);
      for (const seconds of [figures.jobSeconds, figures.deliveredSeconds, figures.idleRunSeconds]) {
        expect(seconds).toBeGreaterThan(0);
      }
      expect(Number.isFinite(figures.memoryGrowthMb.job + figures.memoryGrowthMb.delivery)).toBe(true);
    } finally {
      await scratch.drop();
    }
  }, 120_000);
});
