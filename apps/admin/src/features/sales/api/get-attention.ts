import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { attentionSchema } from '@skyway/shared/schemas/admin/sales';
import { api } from '../../../lib/api-client.ts';

export type Attention = z.infer<typeof attentionSchema>;

export const ATTENTION_KEY = ['/attention'];

/** Everything the operator has to deal with (asked only when the member may see orders). */
export const useAttention = (enabled: boolean) =>
  useQuery({ queryKey: ATTENTION_KEY, queryFn: () => api<Attention>('GET', '/attention'), enabled });
