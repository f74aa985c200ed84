import { useQuery } from '@tanstack/react-query';
import { fetchInviteConf } from './invite-conf.ts';

// Apart from invite-conf.ts: the public download page fetches the config too, and must not carry
// TanStack Query.
export const INVITE_CONF_QUERY_KEY = ['invite-conf'] as const;

/** How long a display may show the config it read; an operator's change shows within a minute. */
const DISPLAY_STALE_MS = 60_000;

/**
 * The config for what a console page shows (the trial's state, what an invitation earns). The trial
 * dialog reads it afresh instead, under the same key, so its answer also refreshes these displays.
 */
export function useInviteConf() {
  return useQuery({ queryKey: INVITE_CONF_QUERY_KEY, queryFn: fetchInviteConf, staleTime: DISPLAY_STALE_MS });
}
