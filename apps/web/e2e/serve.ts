// The real server for the browser journeys: the built web app on a fresh in-memory database, with
// signed-in users whose session tokens are written where the tests read them (see fixtures.ts).
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import { SUBSCRIBE_TYPES } from '@skyway/shared/user';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { rewardInviter } from '../../server/src/modules/invitations/service.ts';
import { lockUser, writeEntitlement } from '../../server/src/modules/ledger/expiry.ts';
import { isSettingKey, resetSetting, writeSetting } from '../../server/src/modules/settings/settings.ts';
import { createSession } from '../../server/src/modules/sessions/repository.ts';
import { createUser, findUserByEmail } from '../../server/src/modules/users/repository.ts';
import { openDatabase } from '../../server/src/db/client.ts';
import { appStoreSubscriptions, appStoreTransactions } from '../../server/src/db/schema/index.ts';
import {
  controlPort,
  E2E_ACCOUNT,
  E2E_APP_STORE,
  E2E_BUYERS,
  type FreshAccount,
  type SessionFile,
  sessionFile,
} from './fixtures.ts';

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
  if (email === E2E_BUYERS.appStore) {
    // As a SUBSCRIBED notification leaves an account (the server's own tests send them signed).
    const now = new Date();
    const expireAt = Math.floor(now.getTime() / 1000) + E2E_APP_STORE.days * 86_400;
    await database.db.insert(appStoreSubscriptions).values({
      originalTransactionId: `e2e-${user.id}`,
      userId: user.id,
      productId: 'e2e.month',
      connections: E2E_APP_STORE.connections,
      latestTransactionId: `e2e-${user.id}`,
      expiresAt: new Date(expireAt * 1000),
      coveredUntil: new Date(expireAt * 1000),
      environment: 'Sandbox',
    });
    await database.db.insert(appStoreTransactions).values({
      transactionId: `e2e-${user.id}`,
      originalTransactionId: `e2e-${user.id}`,
      userId: user.id,
      productId: 'e2e.month',
      connections: E2E_APP_STORE.connections,
      purchasedAt: now,
      expiresAt: new Date(expireAt * 1000),
      notificationId: `e2e-${user.id}`,
      grantedSeconds: expireAt - Math.floor(now.getTime() / 1000),
    });
    await writeEntitlement(database.db, user, {
      reason: 'app_store',
      after: {
        expireAt,
        connections: E2E_APP_STORE.connections,
        pendingConnections: null,
        pendingFrom: 0,
      },
      now,
      subscribeType: SUBSCRIBE_TYPES.appStore,
      autoRenew: true,
    });
  }
  return createSession(database.db, user.id);
}

const sessions: SessionFile = { token: await signedInUser(E2E_ACCOUNT), buyers: {} };
for (const email of Object.values(E2E_BUYERS)) sessions.buyers[email] = await signedInUser(email);
writeFileSync(sessionFile(port), JSON.stringify(sessions));

/**
 * A new signed-in account, for a journey that changes what an account has (a trial claimed, an
 * order); invited by another account when asked, as registration through its link would do.
 */
async function freshAccount(invitedBy: string | undefined): Promise<FreshAccount> {
  const account = `e2e-${randomBytes(6).toString('hex')}@example.com`;
  const inviter = invitedBy ? await findUserByEmail(database.db, invitedBy) : undefined;
  if (invitedBy && !inviter) throw new Error(`no account ${invitedBy}`);
  const user = await database.db.transaction(async (tx) => {
    if (inviter) await lockUser(tx, inviter.id);
    const created = await createUser(tx, { email: account, invitedBy: inviter?.id });
    if (inviter) await rewardInviter(tx, inviter, created, new Date());
    return created;
  });
  return { account, token: await createSession(database.db, user.id) };
}

async function readJson(request: IncomingMessage): Promise<Record<string, string | undefined>> {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return body ? (JSON.parse(body) as Record<string, string | undefined>) : {};
}

// The journeys' controls, on a port of their own and never part of the app: fresh accounts, and the
// operator's settings as `npm run settings` writes them (the same table the server reads).
const control = createServer((request, reply) => {
  void (async () => {
    const body = await readJson(request);
    if (request.url === '/account') {
      reply.end(JSON.stringify(await freshAccount(body.invited_by)));
    } else if (request.url === '/setting' && body.key && isSettingKey(body.key)) {
      if (body.value === undefined) await resetSetting(database.db, body.key);
      else await writeSetting(database.db, body.key, body.value);
      reply.end('{}');
    } else {
      reply.statusCode = 404;
      reply.end();
    }
  })().catch((error: unknown) => {
    reply.statusCode = 500;
    reply.end(String(error));
  });
});

const stop = async () => {
  control.close();
  await app.close();
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

control.listen(controlPort(port), '127.0.0.1');
await app.listen({ host: config.host, port: config.port });
