import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopeProblem, fuzzReplyProblem, statusSummary } from './harness/envelope.ts';
import { type Exchange, jsonOf, send } from './harness/http.ts';
import type { Instance } from './harness/instances.ts';
import { randomClientAddress, seededRandom } from './harness/random.ts';
import { type FaultStack, startFaultStack } from './harness/stack.ts';
import { ADMIN_API, seedOwner, signInStaff, type StaffSession } from './harness/staff.ts';
import { type AdminFuzzCase, adminFuzzCases, type Operation, operationsOf } from './admin-fuzz-cases.ts';

/**
 * Malformed requests over every operation of the back office's API, as its OpenAPI document lists
 * them, sent as a signed-in owner (or without the session or the CSRF token): none may get a 5xx,
 * a reply that is not the envelope, or a reply without the security headers; nothing is answered
 * without a session, and no change is made without its CSRF token. The cases come from a seed (FAULT_FUZZ_SEED).
 */

const SEED = Number(process.env.FAULT_FUZZ_SEED ?? 20_261_124);
const GENERATED = 240;
const CONCURRENCY = 4;
// Signing out would end the session every other case uses; the customer calls' fuzzing covers it.
const NOT_FUZZED = ['DELETE /session'];

let stack: FaultStack;
let instance: Instance;
let session: StaffSession;
let operations: Operation[];
let cases: AdminFuzzCase[];
const results: { fuzzCase: AdminFuzzCase; exchange: Exchange }[] = [];

function problemOf(fuzzCase: AdminFuzzCase, exchange: Exchange): string | undefined {
  const broken = fuzzReplyProblem(exchange);
  if (broken) return broken;
  const status = exchange.status ?? 0;
  const shape = envelopeProblem(status, jsonOf(exchange));
  if (shape) return `not the envelope: ${shape}`;
  const publicOperation = /^(POST \/session|POST \/session\/second-factor|GET \/setup|POST \/setup)/.test(
    fuzzCase.operation,
  );
  // Without a session, a malformed address or body may be refused before the session is looked at
  // (a 400 that shows nothing); anything that gets through is a 401, never data or a change.
  if (!fuzzCase.signedIn && !publicOperation && status < 400) return `answered ${status} without a session`;
  if (fuzzCase.signedIn && !fuzzCase.csrf && !publicOperation && status === 200)
    return 'changed without the CSRF token';
  return undefined;
}

beforeAll(async () => {
  stack = await startFaultStack();
  [instance] = (await stack.startInstances(['a'])) as [Instance];
  session = await signInStaff(instance, await seedOwner(stack.database));
  const document = await send(instance, {
    path: `${ADMIN_API}/openapi.json`,
    headers: { cookie: session.cookie },
  });
  operations = operationsOf(JSON.parse(String(document.body)), ADMIN_API).filter(
    (operation) => !NOT_FUZZED.includes(`${operation.method} ${operation.path}`),
  );
  cases = adminFuzzCases(seededRandom(SEED), operations, GENERATED);

  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  stack.defer(() => agent.destroy());
  const queue = [...cases];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const exchange = await send(instance, {
          method: next.method,
          path: `${ADMIN_API}${next.path}`,
          headers: {
            'x-forwarded-for': randomClientAddress(),
            ...(next.signedIn ? (next.csrf ? session.changeHeaders : { cookie: session.cookie }) : {}),
            ...next.headers,
          },
          body: next.body,
          agent,
          timeoutMs: 15_000,
        });
        results.push({ fuzzCase: next, exchange });
      }
    }),
  );
  console.info(
    `admin fuzz seed ${SEED}: ${results.length} requests over ${operations.length} operations; ` +
      `replies by status: ${statusSummary(results.map((result) => result.exchange))}`,
  );
}, 240_000);
afterAll(() => stack?.cleanup());

describe(`fuzzing every operation of the back office's API (seed ${SEED})`, () => {
  it('read the operations from the OpenAPI document, and fuzzed each', () => {
    expect(operations.length).toBeGreaterThanOrEqual(25);
    const fuzzed = new Set(cases.map((fuzzCase) => fuzzCase.operation));
    expect(operations.filter((operation) => !fuzzed.has(`${operation.method} ${operation.path}`))).toEqual(
      [],
    );
  });

  it('never answers with a 5xx, a body that is not the envelope, without the security headers, or a change without its CSRF token', () => {
    const failures = results.flatMap(({ fuzzCase, exchange }) => {
      const problem = problemOf(fuzzCase, exchange);
      return problem
        ? [
            `#${fuzzCase.id} [${fuzzCase.kind}] ${fuzzCase.method} ${fuzzCase.path.slice(0, 100)} ${fuzzCase.body?.slice(0, 100) ?? ''}: ${problem}: ${String(exchange.body ?? '').slice(0, 200)}`,
          ]
        : [];
    });
    expect(failures).toEqual([]);
  });

  it('left the instance running', () => {
    expect(instance.running(), instance.tail()).toBe(true);
  });
});
