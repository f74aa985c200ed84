import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The account that serve.ts creates, signed in. */
export const E2E_ACCOUNT = 'e2e@example.com';

/**
 * Accounts that serve.ts also creates and signs in, one for each journey that buys: a purchase changes
 * the access (expiry, connections, badge) that the other journeys read from E2E_ACCOUNT. `appStore`
 * is made an app-store subscriber (E2E_APP_STORE) by serve.ts.
 */
export const E2E_BUYERS = {
  firstPurchase: 'buyer-first@example.com',
  sizes: 'buyer-sizes@example.com',
  appStore: 'buyer-app-store@example.com',
} as const;

/** What serve.ts gives E2E_BUYERS.appStore: type 3, auto-renew on, this many days left, connections. */
export const E2E_APP_STORE = { days: 20, connections: 2 } as const;

/** What serve.ts writes: the session token of E2E_ACCOUNT and those of the buyers, by account. */
export interface SessionFile {
  token: string;
  buyers: Record<string, string>;
}

/** Where serve.ts writes the session tokens for the server on a port. */
export function sessionFile(port: number): string {
  return path.join(tmpdir(), `skyway-e2e-session-${port}.json`);
}

const readSessions = (port: number) => JSON.parse(readFileSync(sessionFile(port), 'utf8')) as SessionFile;

/** The live session token of E2E_ACCOUNT on the server at a port (4180 unless told). */
export function e2eToken(port = Number(process.env.E2E_PORT ?? 4180)): string {
  return readSessions(port).token;
}

/** The live session token of one of E2E_BUYERS. */
export function buyerToken(account: string, port = Number(process.env.E2E_PORT ?? 4180)): string {
  const token = readSessions(port).buyers[account];
  if (!token) throw new Error(`serve.ts created no buyer ${account}`);
  return token;
}

/** A signed-in account that serve.ts made on a journey's request. */
export interface FreshAccount {
  account: string;
  token: string;
}

/** The port of serve.ts's controls for the journeys (fresh accounts, operator settings). */
export const controlPort = (port: number) => port + 1;

/**
 * Where the accounts journey's SMTP server listens; serve.ts gets its URL through E2E_SMTP_URL. The
 * query makes nodemailer skip STARTTLS, which the catcher does not offer (smtp-catcher.ts).
 */
export const SMTP_CATCHER_PORT = Number(process.env.E2E_SMTP_PORT ?? 2526);
export const SMTP_CATCHER_URL = `smtp://127.0.0.1:${SMTP_CATCHER_PORT}?ignoreTLS=true`;
