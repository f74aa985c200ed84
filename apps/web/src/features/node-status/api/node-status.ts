import { useQuery } from '@tanstack/react-query';
import type { NodeStatusList } from '@skyway/shared/schemas/node-status';
import { callApi } from '../../../lib/api-client.ts';

/** Agents call every few seconds; the page follows them a minute at a time while it is open. */
const REFRESH_MS = 60_000;

/** The nodes the account's access may use, and how each is. */
export function useNodeStatus() {
  return useQuery({
    queryKey: ['node-status'],
    queryFn: () => callApi<NodeStatusList>('/web/node/status'),
    refetchInterval: REFRESH_MS,
    staleTime: 0,
  });
}
