import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../src/testing/test-database.ts';
import { FIGURES, type FigureId, summaryTable } from './api-report.ts';
import { runApiBench } from './api-run.ts';

// `npm run bench:api` itself is not part of CI (it takes minutes and wants a quiet machine): this
// runs all of it, seeding and every measurement, at a fifth of the quick mode's size and a few
// hundred milliseconds per load, so that a change to the product or the harness that breaks it shows here.
// The figures themselves depend on the machine and are not judged.
describe.runIf(testDatabaseKind === 'postgres')('npm run bench:api', () => {
  it('seeds 2,000 accounts, measures the product and the reference apps, and reports every figure', async () => {
    const results = await runApiBench(
      {
        adminUrl: process.env.TEST_DATABASE_URL ?? '',
        databaseName: `bench_api_test_${randomBytes(4).toString('hex')}`,
        redisUrl: process.env.TEST_REDIS_URL,
        accounts: 2_000,
        repeats: 1,
        effort: {
          connections: 8,
          warmUpMs: 200,
          loadMs: 500,
          samples: 3,
          burst: 4,
          burstMs: 300,
          settleMs: 100,
        },
      },
      () => undefined,
    );

    for (const id of Object.keys(FIGURES) as FigureId[]) {
      const { reference, product } = results.series(id);
      expect(product, id).toHaveLength(1);
      expect(product.every(Number.isFinite), id).toBe(true);
      expect(reference, id).toHaveLength(FIGURES[id].reference === '—' ? 0 : 1);
      expect(
        reference.every((value) => value > 0),
        id,
      ).toBe(true);
    }
    expect(summaryTable(results)).toHaveLength(2 + Object.keys(FIGURES).length);
  }, 120_000);
});
