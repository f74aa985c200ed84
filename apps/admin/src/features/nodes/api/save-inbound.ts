import type { z } from 'zod';
import type { inboundRequest, inboundSchema } from '@skyway/shared/schemas/admin/nodes';
import { api } from '../../../lib/api-client.ts';

type InboundBody = z.infer<typeof inboundRequest>;

/** Adds an inbound to a node. */
export const addInbound = (nodeId: string, body: InboundBody) =>
  api('POST', `/nodes/${nodeId}/inbounds`, body);

/** Changes an inbound: the whole form, or only what a switch turns. */
export const updateInbound = (
  id: string,
  body: Partial<InboundBody> | Partial<z.infer<typeof inboundSchema>>,
) => api('PATCH', `/inbounds/${id}`, body);
