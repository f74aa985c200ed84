import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { gatewayListSchema, gatewaySchema } from '@skyway/shared/schemas/admin/gateways';
import { api } from '../../../lib/api-client.ts';

export type Gateway = z.infer<typeof gatewaySchema>;

export const GATEWAYS_KEY = ['/gateways'];

/** Every payment gateway, in the order the buy page offers them (asked only when the member may edit them). */
export const useGateways = (enabled: boolean) =>
  useQuery({
    queryKey: GATEWAYS_KEY,
    queryFn: async () => (await api<z.infer<typeof gatewayListSchema>>('GET', '/gateways')).items,
    enabled,
  });
