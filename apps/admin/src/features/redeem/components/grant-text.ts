import type { TFunction } from 'i18next';
import type { RedeemBatch } from '../api/redeem-batches.ts';

/** What a batch's codes give, in words: "Monthly × 2 connections", "30 days". */
export function grantText(t: TFunction<['redeem', 'common']>, grant: RedeemBatch['grant']): string {
  return grant.kind === 'plan'
    ? t('grantPlan', { period: t(`common:period_${grant.period}`), connections: grant.connections })
    : t('grantDays', { count: grant.days });
}
