/**
 * What the fault suite needs from its surroundings: a PostgreSQL server on which it may create
 * databases, and a Redis server. CI sets both (see .ci/run).
 */
export interface FaultSettings {
  /** A PostgreSQL URL whose user may create and drop databases. */
  databaseUrl: string;
  /** A Redis URL; instances reach it through a proxy the suite controls, on the same database number. */
  redisUrl: string;
}

export function faultSettings(): FaultSettings {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!databaseUrl || !redisUrl) {
    throw new Error(
      'npm run test:faults needs TEST_DATABASE_URL (a PostgreSQL server on which it may create databases) ' +
        'and TEST_REDIS_URL (a Redis server), e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres ' +
        'TEST_REDIS_URL=redis://127.0.0.1:6379/15',
    );
  }
  return { databaseUrl, redisUrl };
}
