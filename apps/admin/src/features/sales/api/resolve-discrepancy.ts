import type { z } from 'zod';
import type { resolveDiscrepancyRequest } from '@skyway/shared/schemas/admin/sales';
import { api } from '../../../lib/api-client.ts';

/** Closes an hour whose reported traffic and ledger disagree, with what was found. */
export const resolveDiscrepancy = (id: string, body: z.infer<typeof resolveDiscrepancyRequest>) =>
  api('POST', `/traffic-discrepancies/${id}/resolve`, body);
