import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_CONCURRENCY } from '../src/modules/mail/mailer.ts';
import { codeIn } from '../src/testing/smtp-catcher.ts';
import { type Account, requestRegistrationCode, seedAccounts, signIn } from './harness/accounts.ts';
import { webReplyProblem } from './harness/envelope.ts';
import { dataOf, describeExchange, type Exchange, jsonOf, postJson, send } from './harness/http.ts';
import type { Instance } from './harness/instances.ts';
import { hold, waitUntil } from '../src/testing/poll.ts';
import { randomClientAddress, uniqueEmail } from './harness/random.ts';
import { type FaultStack, startFaultStack } from './harness/stack.ts';

/**
 * SMTP outage: mail is queued, not lost. While SMTP refuses connections, code requests and
 * notices answer as usual; once it is back, every queued message arrives exactly once, codes
 * before notices (someone is waiting at a form for a code), and a delivered code still registers.
 */

const MAIL_EVERY_SECONDS = 2;
/** The outage lasts at least this long, so that queued mail meets the outage more than once. */
const OUTAGE_MS = 3 * MAIL_EVERY_SECONDS * 1000;
const DELIVERY_BUDGET_MS = 60_000;
const NOTICES = 3;
const CODES = 5;
const NEW_PASSWORD = 'amber-falcon-meadow-27';

let stack: FaultStack;
let instances: Instance[];
let noticeAccounts: Account[];
const codeAddresses = Array.from({ length: CODES }, () => uniqueEmail('outage-code'));
const replies: Exchange[] = [];

beforeAll(async () => {
  stack = await startFaultStack({ env: { MAIL_EVERY_SECONDS: String(MAIL_EVERY_SECONDS) } });
  instances = await stack.startInstances(['a', 'b']);
  noticeAccounts = await seedAccounts(stack.database, NOTICES, 'outage-notice');
}, 90_000);
afterAll(() => stack?.cleanup());

const instance = (i: number) => instances[i % instances.length] as Instance;
const mailsTo = (address: string) => stack.smtp.messages.filter((mail) => mail.to === address);

async function healthOf(target: Instance) {
  const reply = await send(target, { path: '/healthz', timeoutMs: 3000 });
  return { status: reply.status, body: (jsonOf(reply) ?? {}) as Record<string, unknown> };
}

describe('SMTP outage', () => {
  it('answers password changes and code requests normally while SMTP refuses connections', async () => {
    const tokens = await Promise.all(noticeAccounts.map((account, i) => signIn(instance(i), account)));
    await stack.closeSmtp();
    // Notices first, codes after: the codes must still be delivered first.
    for (const [i, account] of noticeAccounts.entries()) {
      replies.push(
        await postJson(
          instance(i),
          '/web/login/pass',
          { old_pwd: account.password, new_pwd: NEW_PASSWORD },
          { ip: randomClientAddress(), token: tokens[i] },
        ),
      );
    }
    for (const [i, address] of codeAddresses.entries()) {
      replies.push(await requestRegistrationCode(instance(i), address));
    }
    const problems = replies.flatMap((reply) => {
      const problem = reply.status === 200 ? webReplyProblem(reply) : `status ${reply.status}`;
      return problem ? [`${problem}: ${describeExchange(reply)}`] : [];
    });
    expect(problems).toEqual([]);
  });

  it("reports mail: 'degraded' on /healthz (status 200) while SMTP is down", async () => {
    const outageStarted = performance.now();
    try {
      for (const target of instances) {
        await waitUntil(
          `${target.name}'s /healthz saying mail: 'degraded'`,
          async () => {
            const { status, body } = await healthOf(target);
            const mail = (body.dependencies as { mail?: string } | undefined)?.mail;
            if (status === 200 && body.status === 'degraded' && mail === 'degraded') return true;
            throw new Error(`${status} ${JSON.stringify(body)}`);
          },
          { timeoutMs: OUTAGE_MS, intervalMs: 250 },
        );
      }
    } finally {
      // The outage lasts its full length whatever health said, so queued mail meets it more than once.
      await hold(Math.max(0, OUTAGE_MS - (performance.now() - outageStarted)));
    }
  });

  it(
    `delivers every queued message within ${DELIVERY_BUDGET_MS / 1000} s of SMTP's return, exactly once, codes first`,
    async () => {
      expect(stack.smtp.messages, 'mail delivered while SMTP was down').toEqual([]);
      await stack.reopenSmtp();
      const expected = [...codeAddresses, ...noticeAccounts.map((account) => account.email)];
      const { elapsedMs } = await waitUntil(
        'every queued message delivered',
        () => {
          const missing = expected.filter((address) => mailsTo(address).length === 0);
          if (missing.length === 0) return true;
          throw new Error(`still missing mail to ${missing.join(', ')}`);
        },
        { timeoutMs: DELIVERY_BUDGET_MS, intervalMs: 250 },
      );
      console.info(`SMTP back: ${expected.length} queued messages delivered in ${Math.round(elapsedMs)} ms`);
      // A second copy would come from a later run of the retry job (on either instance): give it two.
      await hold(2 * MAIL_EVERY_SECONDS * 1000 + 1000);
      const counts = new Map<string, number>();
      for (const mail of stack.smtp.messages) {
        const key = `${mail.to} | ${mail.subject}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      expect(
        [...counts].filter(([, n]) => n !== 1),
        'messages delivered more than once',
      ).toEqual([]);
      expect(stack.smtp.messages.map((mail) => mail.to).sort()).toEqual([...expected].sort());
      // Codes are claimed first. Each instance has at most RUN_CONCURRENCY messages at SMTP, so when
      // one instance takes the first notice every code is claimed, and at most that many per other
      // instance are still on their way: only those may arrive after a notice.
      const order = stack.smtp.messages.map((mail) => (codeAddresses.includes(mail.to) ? 'code' : 'notice'));
      const codesAfterANotice = order.slice(order.indexOf('notice')).filter((kind) => kind === 'code');
      expect(
        codesAfterANotice.length,
        `arrival order after SMTP returned: ${order.join(', ')}`,
      ).toBeLessThanOrEqual(RUN_CONCURRENCY * (instances.length - 1));
    },
    DELIVERY_BUDGET_MS + 30_000,
  );

  it("reports mail: 'ok' on /healthz once delivery works again", async () => {
    for (const target of instances) {
      await waitUntil(
        `${target.name}'s /healthz saying mail: 'ok'`,
        async () => {
          const { status, body } = await healthOf(target);
          const mail = (body.dependencies as { mail?: string } | undefined)?.mail;
          if (status === 200 && mail === 'ok') return true;
          throw new Error(`${status} ${JSON.stringify(body)}`);
        },
        { timeoutMs: 10_000, intervalMs: 250 },
      );
    }
  });

  it('registers with a code that was delivered after the outage', async () => {
    const address = codeAddresses[0] as string;
    const mail = stack.smtp.messages.find((message) => message.to === address);
    if (!mail) throw new Error(`no code mail to ${address}`);
    const reply = await postJson(
      instance(1),
      '/web/login/register',
      { email: address, password: NEW_PASSWORD, email_code: codeIn(mail) },
      { ip: randomClientAddress() },
    );
    expect(reply.status, describeExchange(reply)).toBe(200);
    expect(webReplyProblem(reply)).toBeUndefined();
    expect(typeof dataOf(reply).token).toBe('string');
  });
});
