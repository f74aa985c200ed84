import type { z } from 'zod';
import type { nodeCreateRequest } from '@skyway/shared/schemas/admin/nodes';
import { api } from '../../../lib/api-client.ts';

/** Adds a node, or changes the one with `id`. */
export const saveNode = (id: string | undefined, body: z.infer<typeof nodeCreateRequest>) =>
  id ? api('PATCH', `/nodes/${id}`, body) : api('POST', '/nodes', body);
