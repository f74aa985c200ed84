// The real server for the browser journeys: the built web app on a fresh in-memory database, with
// signed-in users whose session tokens are written where the tests read them (see fixtures.ts).
import { writeFileSync } from 'node:fs';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { createSession } from '../../server/src/modules/sessions/repository.ts';
import { createUser } from '../../server/src/modules/users/repository.ts';
import { openDatabase } from '../../server/src/db/client.ts';
import { E2E_ACCOUNT, E2E_BUYERS, type SessionFile, sessionFile } from './fixtures.ts';

const port = Number(process.env.E2E_PORT ?? 4180);
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  PORT: String(port),
  SIGNATURE_SECRET: process.env.E2E_SIGNATURE_SECRET ?? '',
  // The accounts journey catches this mail on 127.0.0.1 (e2e/fixtures.ts, smtp-catcher.ts).
  SMTP_URL: process.env.E2E_SMTP_URL ?? '',
});
const database = await openDatabase({ dataDir: 'memory://' });
const app = await buildApp({ config, database });

async function signedInUser(email: string): Promise<string> {
  const user = await createUser(database.db, { email });
  return createSession(database.db, user.id);
}

const sessions: SessionFile = { token: await signedInUser(E2E_ACCOUNT), buyers: {} };
for (const email of Object.values(E2E_BUYERS)) sessions.buyers[email] = await signedInUser(email);
writeFileSync(sessionFile(port), JSON.stringify(sessions));

const stop = async () => {
  await app.close();
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

await app.listen({ host: config.host, port: config.port });
