/**
 * Errors that say the database could not be reached or dropped the connection (a restart, a
 * failover, a terminated backend), or asked the caller to try again (a deadlock or serialization
 * failure). Such a request failed without changing anything it had not committed: the caller may
 * simply try again, so it gets a 503 rather than a 500.
 */

// SQLSTATE classes and codes: 08 connection exception; 57P01–57P03 the server is shutting down or
// starting; 53300 too many connections; 40001/40P01 serialization failure and deadlock.
const TRANSIENT_SQLSTATE = /^(08...|57P0[123]|53300|40001|40P01)$/;

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

// node-postgres reports a lost or unreachable server with plain errors, told apart by their text.
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'terminating connection due to',
];

function isTransientItself(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (TRANSIENT_SQLSTATE.test(code) || NETWORK_CODES.has(code))) return true;
  return typeof message === 'string' && DRIVER_MESSAGES.some((text) => message.includes(text));
}

/** True for a database failure that trying again later can cure; looks through Drizzle's wrapping. */
export function isTransientDatabaseError(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (isTransientItself(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The unique or check constraint that a failed statement violated, looking through Drizzle's wrapping. */
export const violatedConstraint = (error: unknown): string | undefined =>
  ((error as { cause?: { constraint?: string } }).cause ?? (error as { constraint?: string })).constraint;
