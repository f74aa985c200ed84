import type { PayMethod, Plan, PlanList } from '@skyway/shared/plans';
import { callApi } from '../../../lib/api-client.ts';
import { fetchInviteConf } from '../../../lib/invite-conf.ts';

/** What the download page's pricing section shows. */
export interface Pricing {
  plans: Plan[];
  maxConnections: number;
  payMethods: PayMethod[];
  /** The free trial's length for a new account; null while the operator has closed it. */
  trialMinutes: number | null;
}

/**
 * The plans on sale and the free trial, for visitors who have not registered yet (both calls are
 * public). Silent: the section leaves itself out when the plans cannot be read, and leaves the trial
 * out when its config cannot be.
 */
export async function fetchPricing(): Promise<Pricing> {
  const [list, trialMinutes] = await Promise.all([
    callApi<PlanList>('/web/plan/list', {}, { silent: true }),
    fetchInviteConf().then(
      (conf) => (conf.open_trial === '1' && conf.trial_minute > 0 ? conf.trial_minute : null),
      () => null,
    ),
  ]);
  return {
    plans: list.plans,
    maxConnections: list.max_connections,
    payMethods: list.pay_methods,
    trialMinutes,
  };
}
