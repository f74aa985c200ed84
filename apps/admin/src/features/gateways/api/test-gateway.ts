import type { z } from 'zod';
import type { gatewayTestSchema } from '@skyway/shared/schemas/admin/gateways';
import { api } from '../../../lib/api-client.ts';

export type GatewayTest = z.infer<typeof gatewayTestSchema>;

/** Tries a gateway's stored keys against the gateway itself, without opening any payment. */
export const testGateway = (id: string) => api<GatewayTest>('POST', `/gateways/${id}/test`, {});
