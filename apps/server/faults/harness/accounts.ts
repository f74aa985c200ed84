import { hashPassword } from '../../src/lib/passwords.ts';
import { newInviteCode } from '../../src/modules/users/invite-code.ts';
import { codeIn, type SmtpCatcher } from '../../src/testing/smtp-catcher.ts';
import type { FaultDatabase } from './database.ts';
import { webReplyProblem } from './envelope.ts';
import { dataOf, describeExchange, type Exchange, postJson, type Target } from './http.ts';
import { randomClientAddress, uniqueEmail } from './random.ts';
import { noteSecret } from './secrets.ts';

/** The password of every seeded account (long enough, and on no common-password list). */
export const SEEDED_PASSWORD = 'violet-harbour-lantern-91';

export interface Account {
  id: string;
  email: string;
  password: string;
  inviteCode: string;
}

/**
 * Accounts written straight into the database (with a real argon2id hash of SEEDED_PASSWORD), so a
 * scenario starts from signed-up users without spending its time, mail and limits on registering them.
 */
export async function seedAccounts(
  database: FaultDatabase,
  count: number,
  label: string,
): Promise<Account[]> {
  const passwordHash = await hashPassword(SEEDED_PASSWORD);
  const emails = Array.from({ length: count }, () => uniqueEmail(label));
  const rows = await database.query<{ id: string; email: string; invite_code: string }>(
    `insert into users (email, password_hash, invite_code)
     select email, $2, code from unnest($1::text[], $3::text[]) as seed(email, code)
     returning id, email, invite_code`,
    [emails, passwordHash, emails.map(() => newInviteCode())],
  );
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    password: SEEDED_PASSWORD,
    inviteCode: row.invite_code,
  }));
}

/** Fails with the exchange when a call that must succeed did not. */
export function expectOk(exchange: Exchange, status = 200): Exchange {
  const problem = exchange.status === status ? webReplyProblem(exchange) : `status ${exchange.status}`;
  if (problem) throw new Error(`${problem}: ${describeExchange(exchange)}`);
  return exchange;
}

/** Signs in over HTTP and returns the session token. */
export async function signIn(target: Target, account: Account, ip = randomClientAddress()): Promise<string> {
  const reply = expectOk(
    await postJson(target, '/web/login/login', { email: account.email, password: account.password }, { ip }),
  );
  const token = dataOf(reply).token;
  if (typeof token !== 'string') throw new Error(`no token: ${describeExchange(reply)}`);
  return noteSecret('session token', token);
}

/** Asks for a registration code for `email` (the mail goes through SMTP to the catcher). */
export const requestRegistrationCode = (target: Target, email: string, ip = randomClientAddress()) =>
  postJson(target, '/web/login/verify_email', { email, scene: 'register' }, { ip });

/** The code in the newest mail to `email` (waits for it). */
export async function mailedCode(catcher: SmtpCatcher, email: string, timeoutMs = 15_000): Promise<string> {
  return codeIn(await catcher.waitFor((mail) => mail.to === email, timeoutMs));
}
