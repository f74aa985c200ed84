import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { nodeListItemSchema, nodeSchema } from '@skyway/shared/schemas/admin/nodes';
import { api } from '../../../lib/api-client.ts';

export type Node = z.infer<typeof nodeSchema>;
export type ListedNode = z.infer<typeof nodeListItemSchema>;

export const NODES_KEY = ['/nodes'];

/** Every node with its inbounds and health (asked only when the member may see nodes). */
export const useNodes = (enabled: boolean) =>
  useQuery({ queryKey: NODES_KEY, queryFn: () => api<ListedNode[]>('GET', '/nodes'), enabled });
