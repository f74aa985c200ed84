import { describe, expect, it } from 'vitest';
import { createServerDatabase, testDatabaseKind } from '../src/testing/test-database.ts';
import { GOALS, runRemindersBench } from './reminders-run.ts';

// `npm run bench:reminders` itself is not part of CI (it takes minutes): this runs all of it at a
// fifth of the quick mode's size, so that a change to the job, the mailer or the harness that breaks
// it shows here. Of its goals only those that do not depend on the machine are judged.
const SMOKE = { accounts: 2_000, due: 200 };
describe.runIf(testDatabaseKind === 'postgres')('npm run bench:reminders', () => {
  it('seeds the accounts, runs the job, sends a code mail meanwhile, and reports every figure', async () => {
    const scratch = await createServerDatabase();
    try {
      const settings = { databaseUrl: scratch.url, ...SMOKE, deliveryTimeoutMs: 60_000 };
      const figures = await runRemindersBench(settings, () => undefined);
      expect(figures.result).toMatchObject({ sent: { 7: SMOKE.due, 3: 0, 1: 0, 0: 0 }, unmailed: 0 });
      expect(GOALS.reminded.holds(figures, settings), 'every reminder once').toBe(true);
      expect(GOALS.smtp.holds(figures, settings), 'SMTP connections').toBe(true);
      expect(Number.isFinite(figures.code.seconds)).toBe(true);
      for (const seconds of [figures.jobSeconds, figures.deliveredSeconds])
        expect(seconds).toBeGreaterThan(0);
    } finally {
      await scratch.drop();
    }
  }, 120_000);
});
