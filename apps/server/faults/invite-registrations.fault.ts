import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Account,
  mailedCode,
  requestRegistrationCode,
  seedAccounts,
  signIn,
} from './harness/accounts.ts';
import { webReplyProblem } from './harness/envelope.ts';
import { dataOf, describeExchange, type Exchange, postJson } from './harness/http.ts';
import type { Instance } from './harness/instances.ts';
import { randomClientAddress, uniqueEmail } from './harness/random.ts';
import { type FaultStack, startFaultStack } from './harness/stack.ts';

/**
 * Many people register with one inviter's code at the same moment, on both instances: every
 * registration succeeds, and the inviter's rewards stop exactly at the daily cap.
 */

const REGISTRANTS = 24;
const DAILY_CAP = 10;
const INVITE_MINUTES = 90;
const PASSWORD = 'copper-willow-station-58';

let stack: FaultStack;
let instances: Instance[];
let inviter: Account;
const registrants = Array.from({ length: REGISTRANTS }, () => ({
  email: uniqueEmail('invitee'),
  ip: randomClientAddress(),
  code: '',
}));
const codeReplies: Exchange[] = [];
const registrations: Exchange[] = [];

beforeAll(async () => {
  stack = await startFaultStack();
  // The operator's settings, written as `npm run settings -- set` would: the test owns the numbers.
  await stack.database.query(
    `insert into settings (key, value) values ('invite_daily_cap', $1), ('invite_minute', $2)
     on conflict (key) do update set value = excluded.value`,
    [String(DAILY_CAP), String(INVITE_MINUTES)],
  );
  [inviter] = (await seedAccounts(stack.database, 1, 'inviter')) as [Account];
  instances = await stack.startInstances(['a', 'b']);
  const instance = (i: number) => instances[i % instances.length] as Instance;

  for (const [i, registrant] of registrants.entries()) {
    codeReplies.push(await requestRegistrationCode(instance(i), registrant.email, registrant.ip));
  }
  for (const registrant of registrants) registrant.code = await mailedCode(stack.smtp, registrant.email);

  // All at once, alternating instances: the inviter's row is what they contend for.
  registrations.push(
    ...(await Promise.all(
      registrants.map((registrant, i) =>
        postJson(
          instance(i + 1),
          '/web/login/register',
          {
            email: registrant.email,
            password: PASSWORD,
            email_code: registrant.code,
            invite_code: inviter.inviteCode,
          },
          { ip: registrant.ip, timeoutMs: 30_000 },
        ),
      ),
    )),
  );
}, 120_000);
afterAll(() => stack?.cleanup());

describe(`${REGISTRANTS} parallel registrations with one invite code`, () => {
  it('sent every registration code normally', () => {
    const failed = codeReplies.filter((reply) => reply.status !== 200 || webReplyProblem(reply));
    expect(failed.map(describeExchange)).toEqual([]);
  });

  it('registers every one of them (200, a session token), with no 5xx', () => {
    const failed = registrations.filter(
      (reply) => reply.status !== 200 || webReplyProblem(reply) || typeof dataOf(reply).token !== 'string',
    );
    expect(failed.map(describeExchange)).toEqual([]);
  });

  it(`links every new account to the inviter, and rewards exactly the daily cap (${DAILY_CAP})`, async () => {
    const [invited] = await stack.database.query<{ n: string }>(
      'select count(*)::text as n from users where invited_by = $1',
      [inviter.id],
    );
    expect(invited?.n).toBe(String(REGISTRANTS));
    const [rewards] = await stack.database.query<{ n: string; minutes: string }>(
      `select count(*)::text as n, coalesce(sum(minutes), 0)::text as minutes
       from invite_rewards where inviter_id = $1`,
      [inviter.id],
    );
    expect(rewards).toEqual({ n: String(DAILY_CAP), minutes: String(DAILY_CAP * INVITE_MINUTES) });
  });

  it('shows the inviter all of them, the rewarded ones up to the cap, in invite/list', async () => {
    const ip = randomClientAddress();
    const token = await signIn(instances[0] as Instance, inviter, ip);
    const reply = await postJson(
      instances[1] as Instance,
      '/web/invite/list',
      { page: 1, size: 100 },
      { ip, token },
    );
    expect(reply.status, describeExchange(reply)).toBe(200);
    const data = dataOf(reply) as {
      total?: number;
      unclaimed_users?: number;
      list?: { trial_minute: number }[];
    };
    expect(data.total).toBe(REGISTRANTS);
    expect(data.unclaimed_users).toBe(DAILY_CAP);
    expect(data.list?.filter((entry) => entry.trial_minute > 0)).toHaveLength(DAILY_CAP);
  });
});
