import { useInviteConf } from '../../../lib/use-invite-conf.ts';
import { useUserInfo } from '../../../lib/user-info.ts';

/**
 * What the console can say about the free trial (issue 12): claimed (with the end of the access it
 * granted), closed by the operator, open to claim, still loading, or unavailable when a call failed
 * and nothing can honestly be offered.
 */
export type TrialState =
  | { status: 'loading' }
  | { status: 'claimable' }
  | { status: 'claimed'; endsAt: number }
  | { status: 'closed' }
  | { status: 'unavailable' };

export function useTrialState(): TrialState {
  const info = useUserInfo();
  const conf = useInviteConf();
  const trialEnd = info.data?.trial_end ?? 0;
  // A claimed trial stays claimed whatever the operator does later, so it is told first.
  if (trialEnd > 0) return { status: 'claimed', endsAt: trialEnd };
  if (info.data && conf.data) return { status: conf.data.open_trial === '1' ? 'claimable' : 'closed' };
  if (info.isError || conf.isError) return { status: 'unavailable' };
  return { status: 'loading' };
}
