import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/db/client.ts';
import { unsubscribeToken } from '../src/modules/unsubscribe/tokens.ts';
import { payingCustomer } from '../src/testing/customers.ts';
import { formsOf } from '../src/testing/secret-forms.ts';
import { dataOf, describeExchange, postJson, send } from './harness/http.ts';
import type { Instance } from './harness/instances.ts';
import { randomClientAddress, uniqueEmail } from './harness/random.ts';
import { noteSecret } from './harness/secrets.ts';
import { type FaultStack, startFaultStack, SUBSCRIPTION_KEY } from './harness/stack.ts';
import { ADMIN_API, seedOwner, signInStaff, type StaffSession } from './harness/staff.ts';

/**
 * A real server process logging everything (`LOG_LEVEL=trace`) serves every kind of route that
 * carries a secret, right and refused; the stack's cleanup then fails this file (as it fails every
 * other) when any secret the suite noted is in any line the process wrote. This file only makes
 * sure that those lines exist and hold the redacted URLs.
 */

let stack: FaultStack;
let instance: Instance;
let database: DatabaseHandle;
let owner: StaffSession;

beforeAll(async () => {
  stack = await startFaultStack();
  const member = await seedOwner(stack.database);
  [instance] = (await stack.startInstances(['a'], { LOG_LEVEL: 'trace' })) as [Instance];
  owner = await signInStaff(instance, member);
  database = await openDatabase({ databaseUrl: stack.database.url, dataDir: 'memory://' });
  stack.defer(() => database.close());
});
afterAll(() => stack?.cleanup());

const get = (path: string, headers: Record<string, string> = {}) =>
  send(instance, { path, headers: { 'x-forwarded-for': randomClientAddress(), ...headers } });

const staffCall = (method: string, path: string, body?: object) =>
  send(instance, {
    method,
    path: `${ADMIN_API}${path}`,
    // From an address of its own, as `get`: the call ceiling is counted per address in the Redis
    // that every fault file shares, and this file's calls must not meet the others'.
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': randomClientAddress(),
      ...owner.changeHeaders,
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

describe('the log of a real process', () => {
  it('holds the routes that carry secrets with every secret hidden', async () => {
    // A staff invitation by mail, its set-up link opened as a page and as a call, and misused.
    const email = uniqueEmail('staff');
    const invited = await staffCall('POST', '/staff', { email, role: 'admin', language: 'en' });
    expect(invited.status, describeExchange(invited)).toBe(200);
    const mail = await stack.smtp.waitFor((caught) => caught.to === email, 15_000);
    const setup = noteSecret('set-up token', /\/admin\/setup\/([\w-]+)/.exec(mail.text)?.[1] ?? '');
    expect(setup).not.toBe('');
    expect((await get(`/admin/setup/${setup}`)).status).toBe(404);
    const opened = await get(`${ADMIN_API}/setup/${setup}`);
    expect(opened.status).toBe(200);
    noteSecret('drawn TOTP secret', String(dataOf(opened).totp_secret));
    await send(instance, {
      method: 'POST',
      path: `${ADMIN_API}/setup/${setup}`,
      headers: { 'content-type': 'application/json' },
      body: '{"password":"x"}',
    });

    // A customer's session, subscription link and unsubscribe link.
    const { user, token: session } = await payingCustomer(database);
    noteSecret('customer session', session);
    const ip = randomClientAddress();
    const devices = await postJson(instance, '/web/device/list', {}, { ip, token: session });
    const [slot] = dataOf(devices).devices as { url: string }[];
    const link = noteSecret('subscription token', new URL(slot?.url ?? '').pathname.slice('/s/'.length));
    expect((await get(`/s/${link}`)).status).toBe(200);
    for (const form of formsOf(link)) {
      await get(`/s/${form}/clash`, { accept: 'text/html' });
      await get(`/s/${form}${'x'.repeat(200)}`);
    }
    const unsubscribe = noteSecret('unsubscribe token', unsubscribeToken(SUBSCRIPTION_KEY, user.id));
    expect((await get(`/unsubscribe/${unsubscribe}`)).status).toBe(200);

    // A node's token on the node API (bearer) and on UniProxy (query), accepted and refused.
    const created = await staffCall('POST', '/nodes', {
      name: 'Log node',
      region: 'HK',
      host: 'n.example.com',
    });
    expect(created.status, describeExchange(created)).toBe(200);
    const node = dataOf(created) as { id: string; number: number };
    const issued = await staffCall('POST', `/nodes/${node.id}/token`);
    expect(issued.status, describeExchange(issued)).toBe(200);
    const nodeToken = noteSecret('node token', String(dataOf(issued).token));
    expect((await get('/node/v1/config', { authorization: `Bearer ${nodeToken}` })).status).toBe(200);
    for (const type of ['vless', 'no-such-type']) {
      await get(`/api/v1/server/UniProxy/config?node_id=${node.number}&node_type=${type}&token=${nodeToken}`);
    }
    expect((await get('/metrics', { authorization: `Bearer ${stack.metricsToken}` })).status).toBe(200);

    const log = instance.lines().join('\n');
    expect(log).toContain('/admin/setup/[redacted]');
    expect(log).toContain('/s/[redacted]');
    expect(log).toContain('/unsubscribe/[redacted]');
    expect(log).toContain('token=[redacted]');
  });
});
