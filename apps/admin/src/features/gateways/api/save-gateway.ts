import type { z } from 'zod';
import type { gatewayCreateRequest, GatewayUpdateRequest } from '@skyway/shared/schemas/admin/gateways';
import { api } from '../../../lib/api-client.ts';

export type GatewayCreateBody = z.input<typeof gatewayCreateRequest>;

/** Adds a gateway with its kind's settings and keys. */
export const createGateway = (body: GatewayCreateBody) => api('POST', '/gateways', body);

/** Changes a gateway; keys left out stay as they are stored. */
export const updateGateway = (id: string, body: GatewayUpdateRequest) =>
  api('PATCH', `/gateways/${id}`, body);
