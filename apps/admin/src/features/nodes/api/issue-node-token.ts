import type { z } from 'zod';
import type { nodeTokenSchema } from '@skyway/shared/schemas/admin/nodes';
import { api } from '../../../lib/api-client.ts';

/** A new token for the node's agent, shown this once; the old one stops working. */
export const issueNodeToken = (id: string) =>
  api<z.infer<typeof nodeTokenSchema>>('POST', `/nodes/${id}/token`);
