import { createHash } from 'node:crypto';

/**
 * What the database keeps instead of a bearer token (a session's, a subscription link's, a node's),
 * and looks it up by: its sha-256, in hex.
 */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
