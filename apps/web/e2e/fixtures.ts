import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The account that serve.ts creates, signed in. */
export const E2E_ACCOUNT = 'e2e@example.com';

/** Where serve.ts writes the session token of E2E_ACCOUNT for the server on a port. */
export function sessionFile(port: number): string {
  return path.join(tmpdir(), `skyway-e2e-session-${port}.json`);
}

/** The live session token of E2E_ACCOUNT on the server at a port (4180 unless told). */
export function e2eToken(port = Number(process.env.E2E_PORT ?? 4180)): string {
  return (JSON.parse(readFileSync(sessionFile(port), 'utf8')) as { token: string }).token;
}

/**
 * Where the accounts journey's SMTP server listens; serve.ts gets its URL through E2E_SMTP_URL. The
 * query makes nodemailer skip STARTTLS, which the catcher does not offer (smtp-catcher.ts).
 */
export const SMTP_CATCHER_PORT = Number(process.env.E2E_SMTP_PORT ?? 2526);
export const SMTP_CATCHER_URL = `smtp://127.0.0.1:${SMTP_CATCHER_PORT}?ignoreTLS=true`;
