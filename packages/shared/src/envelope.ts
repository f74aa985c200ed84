import type { z } from 'zod';
import { COUPON_REFUSALS } from './coupons.ts';
import type { errorData, noFields } from './schemas/envelope.ts';

/** Envelope codes (PRODUCT.md section 2). Each equals the reply's HTTP status. */
export const CODES = {
  ok: 200,
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  timeout: 408,
  conflict: 409,
  tooLarge: 413,
  unsupportedMediaType: 415,
  tooMany: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type Code = (typeof CODES)[keyof typeof CODES];

/**
 * Stable machine-readable reasons carried in `data.reason`. The server localizes `msg` from these,
 * and the client may map them to its own text.
 */
export const REASONS = [
  'field_required',
  'field_invalid',
  'files_not_accepted',
  'body_invalid',
  'url_invalid',
  'request_timeout',
  'payload_too_large',
  'unsupported_media_type',
  'signature_missing',
  'signature_invalid',
  'signature_stale',
  // 401 without a token; `session_expired`: a token was sent but its session has ended (expired,
  // signed out, or ended by a password change), so the client signs out and asks to sign in again.
  'not_signed_in',
  'session_expired',
  'account_revoked',
  'credentials_invalid',
  'password_too_common',
  'code_invalid',
  'code_expired',
  'code_resend_too_soon',
  'email_taken',
  'trial_claimed',
  'trial_closed',
  'order_not_found',
  'order_not_payable',
  'payment_unavailable',
  'payment_signature_invalid',
  'app_store_notification_invalid',
  'not_found',
  // The back office: a role without the permission; a change without the session's CSRF header; a
  // wrong or reused TOTP or recovery code; a set-up link unknown, used or expired; a disabled member;
  // a change to staff that the rules refuse (oneself, the last owner, a member already set up).
  'permission_denied',
  'csrf_invalid',
  'second_factor_invalid',
  'setup_link_invalid',
  'staff_disabled',
  'staff_change_refused',
  // A message that is not failed, or whose body is no longer kept (a code mail's), cannot be sent again.
  'mail_not_retryable',
  // Only a message still waiting (and not being delivered this moment) can be cancelled.
  'mail_not_cancellable',
  // Notices: publishing one whose expiry has passed; taking down one that is not showing.
  'notice_expired',
  'notice_not_published',
  // Help articles: each has an address (slug) of its own.
  'help_slug_taken',
  // Refunds and the attention queue: a payment of another provider than the one configured (or of
  // one without a refund API); a payment refunded already; the provider's no; an item already closed;
  // a payment recorded as refunded outside that its provider can refund from here.
  'refund_unavailable',
  'refund_through_provider',
  'already_refunded',
  'refund_refused',
  'already_resolved',
  // Coupons: the refusals of a code (coupons.ts, COUPON_REFUSALS); a code another coupon has; a
  // change to a coupon that has ended.
  ...COUPON_REFUSALS,
  'coupon_code_taken',
  'coupon_ended',
  // Payment gateways: their keys cannot be saved while the server has no SECRETS_KEY.
  'secrets_key_unset',
  // Telegram: the site has no bot set up; the token given is not a bot's (Telegram refused it); the
  // account is not bound to the bot.
  'telegram_unavailable',
  'telegram_token_invalid',
  'telegram_not_bound',
  // The node API: a token that names no node (or was rotated or revoked), a disabled node, an agent
  // speaking another major version of the contract.
  'node_token_invalid',
  'node_disabled',
  'node_api_version',
  // The UniProxy compatibility routes: the node's inbound of the node type asked for is one those
  // programs cannot run as we serve it (REALITY, whose private key stays on the node; Shadowsocks
  // 2022, whose user keys they derive in their own way).
  'uniproxy_unsupported',
  // Redeem codes: a code unknown, revoked or used (one reply for all, so that guesses learn nothing);
  // the account's redemption locked after too many wrong tries; staff revoking a code already redeemed,
  // or a batch or code already revoked.
  'redeem_code_invalid',
  'redeem_locked',
  'redeem_code_used',
  'redeem_already_revoked',
  // Tickets: an image that is not a PNG, JPEG or WebP by its content (or cannot be read as one), or
  // larger than the limit; the ticket's images together past their limit; the account's open tickets
  // or messages this hour at their limit; a reply to a closed ticket; assigning a member who may not reply.
  'ticket_image_type',
  'ticket_image_too_large',
  'ticket_attachments_full',
  'ticket_open_limit',
  'ticket_message_limit',
  'ticket_closed',
  'ticket_assignee_invalid',
  'too_many_requests',
  'internal_error',
  'service_unavailable',
] as const;

export type Reason = (typeof REASONS)[number];

/** Every reply: `data` is the call's own reply data when `code` is 200, ErrorData otherwise. */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

/** `data` of a failed call (`schemas/envelope.ts`). */
export type ErrorData = z.infer<typeof errorData>;

/** The data of a reply that carries none (`{}`). */
export type NoFields = z.infer<typeof noFields>;
