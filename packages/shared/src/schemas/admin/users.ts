import { z } from 'zod';
import { isoTime, sortQuery } from './common.ts';
import { cappedPageOf, listQuery, pageOf } from '../paging.ts';

/** What a search for accounts matches: an id, an invite code, or any part of the address (3+ characters). */
export const USER_SEARCH_MIN_LENGTH = 3;

export const userListQuery = listQuery
  .extend(sortQuery.shape)
  .extend({ q: z.string().trim().max(254).optional() });

/** An account as the list shows it. */
export const userSummarySchema = z.object({
  id: z.uuid(),
  email: z.string(),
  invite_code: z.string(),
  language: z.string(),
  created_at: isoTime,
  last_login_at: isoTime.nullable(),
  expire_at: isoTime.nullable(),
  connections: z.number().int(),
  /** 1 none, 2 card, 3 App Store (the customer calls' subscribe_type). */
  subscribe_type: z.number().int(),
  disabled: z.boolean(),
});

export const userListSchema = cappedPageOf(userSummarySchema);

/** An account's whole picture, apart from the lists that have pages of their own. */
export const userDetailSchema = userSummarySchema.extend({
  pending_connections: z.number().int().nullable(),
  pending_from: isoTime.nullable(),
  auto_renew: z.boolean(),
  inactive_warned_at: isoTime.nullable(),
  invited_by: z.object({ id: z.uuid(), email: z.string() }).nullable(),
  trial: z.object({ minutes: z.number().int(), claimed_at: isoTime }).nullable(),
  app_store: z.array(
    z.object({
      original_transaction_id: z.string(),
      product_id: z.string(),
      connections: z.number().int(),
      expires_at: isoTime.nullable(),
      auto_renew: z.boolean(),
      environment: z.string(),
    }),
  ),
  live_sessions: z.number().int(),
});

/** The lists of an account's page, each a page at a time. */
export const USER_SECTIONS = [
  'ledger',
  'orders',
  'payments',
  'sessions',
  'invitations',
  'mail',
  'devices',
  'fetches',
] as const;
export type UserSection = (typeof USER_SECTIONS)[number];
export const userSectionParams = z.object({ id: z.uuid(), section: z.enum(USER_SECTIONS) });

const ledgerEntry = z.object({
  kind: z.literal('ledger'),
  id: z.string(),
  reason: z.string(),
  ref: z.string().nullable(),
  seconds: z.number().int(),
  connections: z.number().int().nullable(),
  from_expire_at: isoTime.nullable(),
  to_expire_at: isoTime,
  created_at: isoTime,
});
const orderEntry = z.object({
  kind: z.literal('orders'),
  id: z.string(),
  period: z.string(),
  connections: z.number().int(),
  amount: z.number().int(),
  currency: z.string(),
  pay_method: z.string(),
  provider: z.string(),
  status: z.string(),
  created_at: isoTime,
  paid_at: isoTime.nullable(),
});
const paymentEntry = z.object({
  kind: z.literal('payments'),
  id: z.string(),
  order_id: z.string(),
  provider: z.string(),
  provider_payment_id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  outcome: z.string(),
  created_at: isoTime,
});
const sessionEntry = z.object({
  kind: z.literal('sessions'),
  id: z.string(),
  created_at: isoTime,
  last_seen_at: isoTime,
  expires_at: isoTime,
  revoked_at: isoTime.nullable(),
});
const invitationEntry = z.object({
  kind: z.literal('invitations'),
  id: z.string(),
  email: z.string(),
  created_at: isoTime,
});
const mailEntry = z.object({
  kind: z.literal('mail'),
  id: z.string(),
  template: z.string(),
  subject: z.string(),
  status: z.string(),
  attempts: z.number().int(),
  error: z.string().nullable(),
  created_at: isoTime,
  sent_at: isoTime.nullable(),
});

/**
 * A device slot (a paid connection), in its position's order. Never its credential, secret or link:
 * staff see what the slot is and how it is used, not what would let them connect as the customer.
 */
const deviceEntry = z.object({
  kind: z.literal('devices'),
  id: z.uuid(),
  position: z.number().int(),
  name: z.string().nullable(),
  platform: z.string().nullable(),
  /** The device our own apps bound to the slot (their `x-hwid`); null: none. */
  hwid: z.string().nullable(),
  active: z.boolean(),
  created_at: isoTime,
  last_fetch_at: isoTime.nullable(),
  /** Source addresses the nodes refuse the slot from now: another device holds it (one device per slot). */
  refused: z.array(z.string()),
  /** Bytes the slot's credential sent and received in the access's current period. */
  upload: z.number().int().nonnegative(),
  download: z.number().int().nonnegative(),
});
/** A fetch of one of the account's subscription links, newest first. */
const fetchEntry = z.object({
  kind: z.literal('fetches'),
  id: z.string(),
  at: isoTime,
  slot_position: z.number().int(),
  slot_name: z.string().nullable(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** The format served: clash, sing-box, base64, sip008 or page. */
  format: z.string(),
});

export const userSectionEntry = z.discriminatedUnion('kind', [
  ledgerEntry,
  orderEntry,
  paymentEntry,
  sessionEntry,
  invitationEntry,
  mailEntry,
  deviceEntry,
  fetchEntry,
]);
export const userSectionSchema = pageOf(userSectionEntry);
export type UserSectionEntry = z.infer<typeof userSectionEntry>;

/** Time added (positive) or taken back (negative) by staff, with the reason the audit log keeps. */
export const adjustTimeRequest = z
  .object({
    days: z.number().int().min(-3650).max(3650).default(0),
    hours: z.number().int().min(-23).max(23).default(0),
    reason: z.string().trim().min(3).max(500),
  })
  .refine((body) => body.days !== 0 || body.hours !== 0, { path: ['days'] });
export const adjustTimeReply = z.object({ expire_at: isoTime.nullable() });

export const userPatchRequest = z.object({
  disabled: z.boolean(),
  reason: z.string().trim().min(3).max(500),
});
