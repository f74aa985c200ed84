import { createHmac } from 'node:crypto';

/**
 * A slot's subscription token: 256 bits derived from the slot and its token version with the
 * server's subscription key, so the console can show the link again while the database keeps only
 * its hash (`hashToken`). A new version (regenerate) is a new token; the old one matches nothing any more.
 */
export const subscriptionToken = (key: string, slot: { id: string; tokenVersion: number }) =>
  createHmac('sha256', key).update(`subscription:${slot.id}:${slot.tokenVersion}`).digest('base64url');
