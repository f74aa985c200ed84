import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, seedAccounts, signIn } from './harness/accounts.ts';
import { envelopeProblem, fuzzReplyProblem, statusSummary } from './harness/envelope.ts';
import { type Exchange, jsonOf, send } from './harness/http.ts';
import type { Instance } from './harness/instances.ts';
import { randomClientAddress } from './harness/random.ts';
import { type FaultStack, startFaultStack } from './harness/stack.ts';
import { isCallPath } from '../src/plugins/call-paths.ts';
import { describeCase, type FuzzCase, fuzzCases, callRoutesInSource } from './fuzz-cases.ts';

/**
 * Malformed requests over every `/web/` call and the node API's (`/node/v1/`, unauthenticated): none may get a 5xx, a reply that is not the
 * envelope, or a reply without the security headers. The cases come from a seed
 * (FAULT_FUZZ_SEED, printed), so a failure reproduces; failing inputs are printed in full.
 */

const SEED = Number(process.env.FAULT_FUZZ_SEED ?? 20_261_122);
const GENERATED = 320;
const CONCURRENCY = 4;

let stack: FaultStack;
let instances: Instance[];
let account: Account;
let token: string;
const routes = callRoutesInSource();
const cases = fuzzCases(SEED, GENERATED, routes);
const results: { fuzzCase: FuzzCase; exchange: Exchange }[] = [];

/** Why a reply breaks the contract; undefined when it keeps it. Pages outside `/web/` may be HTML. */
function problemOf(fuzzCase: FuzzCase, exchange: Exchange): string | undefined {
  const broken = fuzzReplyProblem(exchange);
  if (broken) return broken;
  const status = exchange.status ?? 0;
  const isPage =
    !isCallPath(fuzzCase.path) && String(exchange.headers?.['content-type']).startsWith('text/html');
  if (isPage) return undefined;
  const shape = envelopeProblem(status, jsonOf(exchange));
  return shape ? `not the envelope: ${shape}` : undefined;
}

async function sendCase(fuzzCase: FuzzCase, agent: http.Agent): Promise<Exchange> {
  const target = instances[fuzzCase.id % instances.length] as Instance;
  // Signing out ends the session it is sent with: that case gets a session of its own.
  const session =
    fuzzCase.signedIn && fuzzCase.path.startsWith('/web/login/out') ? await signIn(target, account) : token;
  return send(target, {
    method: fuzzCase.method,
    path: fuzzCase.path,
    headers: {
      'x-forwarded-for': randomClientAddress(),
      ...(fuzzCase.signedIn ? { authorization: `Bearer ${session}` } : {}),
      ...fuzzCase.headers,
    },
    body: fuzzCase.body,
    agent,
    timeoutMs: 15_000,
  });
}

beforeAll(async () => {
  stack = await startFaultStack({
    // The App Store route is on too, so its handler is fuzzed (LocalTesting: no certificates needed).
    env: {
      APPLE_BUNDLE_ID: 'com.example.skyway',
      APPLE_ENVIRONMENT: 'LocalTesting',
      APPLE_PRODUCTS: 'com.example.skyway.month=month:1',
    },
  });
  instances = await stack.startInstances(['a', 'b']);
  [account] = (await seedAccounts(stack.database, 1, 'fuzz')) as [Account];
  token = await signIn(instances[0] as Instance, account);

  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  stack.defer(() => agent.destroy());
  const queue = [...cases];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        results.push({ fuzzCase: next, exchange: await sendCase(next, agent) });
      }
    }),
  );
  console.info(
    `fuzz seed ${SEED}: ${results.length} requests over ${routes.length} calls; replies by status: ` +
      statusSummary(results.map((result) => result.exchange)),
  );
}, 240_000);
afterAll(() => stack?.cleanup());

describe(`fuzzing every /web/ call (seed ${SEED})`, () => {
  it('found the calls in the server source', () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(routes).toContain('/web/login/register');
    expect(new Set(cases.map((fuzzCase) => fuzzCase.path.split(/[?%;#]/)[0]))).toSatisfy(
      (paths: Set<string>) => routes.every((route) => paths.has(route)),
    );
  });

  it('never answers with a 5xx, a dropped connection, a body that is not the envelope, or without the security headers', () => {
    const failures = results.flatMap(({ fuzzCase, exchange }) => {
      const problem = problemOf(fuzzCase, exchange);
      return problem ? [{ fuzzCase, exchange, problem }] : [];
    });
    if (failures.length > 0) {
      console.error(
        `${failures.length} failing fuzz inputs (seed ${SEED}; FAULT_FUZZ_SEED=${SEED} reproduces them):\n` +
          failures
            .map(
              ({ fuzzCase, exchange, problem }) =>
                `${describeCase(fuzzCase)}\n    → ${problem}: ${exchange.status ?? ''} ${(exchange.body ?? Buffer.alloc(0)).toString('utf8').slice(0, 200)}`,
            )
            .join('\n'),
      );
    }
    expect(
      failures.map(
        ({ fuzzCase, problem }) =>
          `#${fuzzCase.id} [${fuzzCase.kind}] ${fuzzCase.method} ${fuzzCase.path.slice(0, 80)}: ${problem}`,
      ),
    ).toEqual([]);
  });

  it('left both instances running', () => {
    for (const instance of instances) expect(instance.running(), instance.tail()).toBe(true);
  });
});
