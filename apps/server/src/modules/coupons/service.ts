import { randomInt } from 'node:crypto';
import {
  type CouponRefusal,
  type CouponTerms,
  GENERATED_CODE_ALPHABET,
  GENERATED_CODE_LENGTH,
  normalizeCouponCode,
} from '@skyway/shared/coupons';
import type { Period } from '@skyway/shared/plans';
import type {
  Coupon,
  CouponCreateRequest,
  CouponListQuery,
  CouponUpdateRequest,
} from '@skyway/shared/schemas/admin/coupons';
import type { Database } from '../../db/client.ts';
import type { CouponRow } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { recordAudit, type StaffActor } from '../audit/repository.ts';
import {
  countCouponUses,
  type CouponFigures,
  couponWithFigures,
  findCouponByCode,
  hasPaidOrder,
  insertCoupon,
  listCoupons,
  lockCoupon,
  updateCoupon,
} from './repository.ts';

/** What a coupon would be used on: the plan's period, the connections, the price before the coupon. */
export interface CouponUse {
  period: Period;
  connections: number;
  price: number;
}

/** A refusal the buyer sees, with its own message, against the form's coupon field. */
const refused = (reason: CouponRefusal) => new AppError(400, reason, { field: 'coupon_code' });

/** A coupon's list of periods or connection counts allows the value: empty allows any. */
const appliesTo = <T>(allowed: readonly T[], value: T) => allowed.length === 0 || allowed.includes(value);

/** What the coupon's own terms say of this use at this time (its uses aside); null: they allow it. */
function refusalByTerms(coupon: CouponRow, use: CouponUse, now: Date): CouponRefusal | null {
  if (coupon.status === 'ended' || (coupon.validTo && coupon.validTo <= now)) return 'coupon_expired';
  if (coupon.status === 'paused' || (coupon.validFrom && coupon.validFrom > now)) return 'coupon_not_active';
  if (!appliesTo(coupon.periods, use.period) || !appliesTo(coupon.connections, use.connections)) {
    return 'coupon_not_applicable';
  }
  if (use.price < coupon.minAmount) return 'coupon_below_minimum';
  return null;
}

/**
 * The coupon of a code if this account may use it on this purchase now, else the refusal (an
 * AppError with the reason) in this order: unknown, expired, not active, not for this plan, under the
 * minimum, not a first order, this account's uses taken, every use taken. With `lock` (order/create,
 * inside the account's transaction) the coupon's row is held until the order is written, so that two
 * orders at once on any instances count each other's use: the caps hold.
 */
export async function couponFor(
  db: Database,
  userId: string,
  code: string,
  use: CouponUse,
  now: Date,
  options: { lock?: boolean } = {},
): Promise<CouponRow & { terms: CouponTerms }> {
  const coupon = await findCouponByCode(db, normalizeCouponCode(code), options);
  if (!coupon) throw refused('coupon_unknown');
  const byTerms = refusalByTerms(coupon, use, now);
  if (byTerms) throw refused(byTerms);
  if (coupon.firstOrderOnly && (await hasPaidOrder(db, userId))) throw refused('coupon_first_order_only');
  if (
    coupon.maxUsesPerUser !== null &&
    (await countCouponUses(db, coupon.id, now, userId)) >= coupon.maxUsesPerUser
  ) {
    throw refused('coupon_already_used');
  }
  if (coupon.maxUses !== null && (await countCouponUses(db, coupon.id, now)) >= coupon.maxUses) {
    throw refused('coupon_used_up');
  }
  return { ...coupon, terms: { kind: coupon.kind, value: coupon.value } };
}

/** A coupon as the back office shows it. */
export function presentCoupon(row: CouponRow & CouponFigures): Coupon {
  return {
    ...audited(row),
    uses_held: row.usesHeld,
    uses_paid: row.usesPaid,
    discount_total: row.discountTotal,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A coupon's terms and status, as its audit rows keep them. */
function audited(row: CouponRow) {
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    value: row.value,
    min_amount: row.minAmount,
    periods: row.periods,
    connections: row.connections,
    first_order_only: row.firstOrderOnly,
    valid_from: row.validFrom?.toISOString() ?? null,
    valid_to: row.validTo?.toISOString() ?? null,
    max_uses: row.maxUses,
    max_uses_per_user: row.maxUsesPerUser,
    status: row.status,
  };
}

const dateOf = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null ? null : new Date(value);

/** The columns of a create or update request (absent fields of an update stay as they are). */
function termColumns(request: CouponUpdateRequest) {
  return {
    kind: request.kind,
    value: request.value,
    minAmount: request.min_amount,
    periods: request.periods,
    connections: request.connections && [...new Set(request.connections)].sort((a, b) => a - b),
    firstOrderOnly: request.first_order_only,
    validFrom: dateOf(request.valid_from),
    validTo: dateOf(request.valid_to),
    maxUses: request.max_uses,
    maxUsesPerUser: request.max_uses_per_user,
  };
}

/** A code of GENERATED_CODE_LENGTH characters from an alphabet without look-alikes. */
export const generateCouponCode = () =>
  Array.from(
    { length: GENERATED_CODE_LENGTH },
    () => GENERATED_CODE_ALPHABET[randomInt(GENERATED_CODE_ALPHABET.length)],
  ).join('');

export async function listCouponsForStaff(db: Database, query: CouponListQuery, now: Date) {
  const { rows, more } = await listCoupons(db, query, now);
  return { items: rows.map(presentCoupon), more };
}

async function shown(db: Database, id: string, now: Date): Promise<Coupon> {
  const row = await couponWithFigures(db, id, now);
  if (!row) throw new AppError(404, 'not_found');
  return presentCoupon(row);
}

/** A new coupon with the typed code (409 when another has it), or a generated one. */
export async function createCoupon(
  db: Database,
  actor: StaffActor,
  request: CouponCreateRequest,
  now: Date,
): Promise<Coupon> {
  const row = await db.transaction(async (tx) => {
    // A generated code that happens to be taken is drawn again.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const inserted = await insertCoupon(tx, {
        code: request.code ?? generateCouponCode(),
        ...termColumns(request),
        kind: request.kind,
        value: request.value,
        createdAt: now,
        updatedAt: now,
      });
      if (inserted) {
        await recordAudit(
          tx,
          actor,
          {
            action: 'coupon.create',
            targetType: 'coupon',
            targetId: inserted.id,
            before: null,
            after: audited(inserted),
          },
          now,
        );
        return inserted;
      }
      if (request.code) break;
    }
    throw new AppError(409, 'coupon_code_taken', { field: 'code' });
  });
  return shown(db, row.id, now);
}

/**
 * Changes a coupon under its lock, with its audit row: new terms (a percent checked against the kind
 * it ends with), or its status. An ended coupon changes no more.
 */
async function changeCoupon(
  db: Database,
  actor: StaffActor,
  id: string,
  action: string,
  change: (before: CouponRow) => Partial<CouponRow>,
  now: Date,
): Promise<Coupon> {
  await db.transaction(async (tx) => {
    const before = await lockCoupon(tx, id);
    if (!before) throw new AppError(404, 'not_found');
    if (before.status === 'ended') throw new AppError(409, 'coupon_ended');
    const row = await updateCoupon(tx, id, { ...change(before), updatedAt: now });
    const { kind, value, validFrom, validTo } = row;
    if (kind === 'percent' && value > 100) throw new AppError(400, 'field_invalid', { field: 'value' });
    if (validFrom && validTo && validTo <= validFrom) {
      throw new AppError(400, 'field_invalid', { field: 'valid_to' });
    }
    await recordAudit(
      tx,
      actor,
      { action, targetType: 'coupon', targetId: id, before: audited(before), after: audited(row) },
      now,
    );
  });
  return shown(db, id, now);
}

export const editCoupon = (
  db: Database,
  actor: StaffActor,
  id: string,
  request: CouponUpdateRequest,
  now: Date,
) => changeCoupon(db, actor, id, 'coupon.update', () => termColumns(request), now);

const STATUS_OF_ACTION = { pause: 'paused', resume: 'active', end: 'ended' } as const;

/** Pause, resume or end a coupon: orders already made keep their coupon and price. */
export const setCouponStatus = (
  db: Database,
  actor: StaffActor,
  id: string,
  action: keyof typeof STATUS_OF_ACTION,
  now: Date,
) => changeCoupon(db, actor, id, `coupon.${action}`, () => ({ status: STATUS_OF_ACTION[action] }), now);
