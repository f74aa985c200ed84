import type { z } from 'zod';
import type {
  userDetailSchema,
  UserSectionEntry,
  userSummarySchema,
} from '@skyway/shared/schemas/admin/users';
import type { UserRow } from '../../db/schema/index.ts';
import type { userSectionPage, userSurroundings } from './repository.ts';

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function presentUserSummary(user: UserRow): z.infer<typeof userSummarySchema> {
  return {
    id: user.id,
    email: user.email,
    invite_code: user.inviteCode,
    language: user.language,
    created_at: user.createdAt.toISOString(),
    last_login_at: iso(user.lastLoginAt),
    expire_at: iso(user.expireAt),
    connections: user.connections,
    subscribe_type: user.subscribeType,
    disabled: user.revokedAt !== null,
  };
}

export function presentUserDetail(
  user: UserRow,
  around: Awaited<ReturnType<typeof userSurroundings>>,
): z.infer<typeof userDetailSchema> {
  return {
    ...presentUserSummary(user),
    pending_connections: user.pendingConnections,
    pending_from: iso(user.pendingFrom),
    auto_renew: user.autoRenew,
    inactive_warned_at: iso(user.inactiveWarnedAt),
    invited_by: around.inviter,
    trial: around.trial && {
      minutes: around.trial.minutes,
      claimed_at: around.trial.claimedAt.toISOString(),
    },
    app_store: around.appStore.map((subscription) => ({
      original_transaction_id: subscription.originalTransactionId,
      product_id: subscription.productId,
      connections: subscription.connections,
      expires_at: iso(subscription.expiresAt),
      auto_renew: subscription.autoRenew,
      environment: subscription.environment,
    })),
    live_sessions: around.liveSessions,
  };
}

/** The entries of one of an account's lists, each tagged with its list. */
export function presentSection(page: Awaited<ReturnType<typeof userSectionPage>>): UserSectionEntry[] {
  switch (page.section) {
    case 'ledger':
      return page.rows.map((row) => ({
        kind: page.section,
        id: row.id,
        reason: row.reason,
        ref: row.ref,
        seconds: row.seconds,
        connections: row.connections,
        from_expire_at: iso(row.fromExpireAt),
        to_expire_at: row.toExpireAt.toISOString(),
        created_at: row.createdAt.toISOString(),
      }));
    case 'orders':
      return page.rows.map((row) => ({
        kind: page.section,
        id: row.id,
        period: row.period,
        connections: row.connections,
        amount: row.amount,
        currency: row.currency,
        pay_method: row.payMethod,
        provider: row.provider,
        status: row.status,
        created_at: row.createdAt.toISOString(),
        paid_at: iso(row.paidAt),
      }));
    case 'payments':
      return page.rows.map((row) => ({
        kind: page.section,
        id: row.id,
        order_id: row.orderId,
        provider: row.provider,
        provider_payment_id: row.providerPaymentId,
        amount: row.amount,
        currency: row.currency,
        outcome: row.outcome,
        created_at: row.createdAt.toISOString(),
      }));
    case 'sessions':
      return page.rows.map((row) => ({
        kind: page.section,
        id: row.id,
        created_at: row.createdAt.toISOString(),
        last_seen_at: row.lastSeenAt.toISOString(),
        expires_at: row.expiresAt.toISOString(),
        revoked_at: iso(row.revokedAt),
      }));
    case 'invitations':
      return page.rows.map((row) => ({
        kind: page.section,
        id: row.id,
        email: row.email,
        created_at: row.createdAt.toISOString(),
      }));
    case 'mail':
      return page.rows.map((row) => ({
        kind: page.section,
        id: row.id,
        template: row.template,
        subject: row.subject,
        status: row.status,
        attempts: row.attempts,
        error: row.error,
        created_at: row.createdAt.toISOString(),
        sent_at: iso(row.sentAt),
      }));
    case 'devices':
      return page.rows.map((row) => ({
        kind: page.section,
        id: row.id,
        position: row.position,
        name: row.name,
        platform: row.platform,
        hwid: row.hwid,
        active: row.active,
        created_at: row.createdAt.toISOString(),
        last_fetch_at: iso(row.lastFetchAt),
        refused: row.refused,
        upload: row.usage.upload,
        download: row.usage.download,
      }));
    case 'fetches':
      return page.rows.map((row) => ({
        kind: page.section,
        id: String(row.id),
        at: row.at.toISOString(),
        slot_position: row.slotPosition,
        slot_name: row.slotName,
        ip: row.ip,
        user_agent: row.userAgent,
        format: row.format,
      }));
  }
}
