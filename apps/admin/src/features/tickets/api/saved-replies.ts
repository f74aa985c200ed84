import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { savedReplyListSchema } from '@skyway/shared/schemas/admin/tickets';
import { api } from '../../../lib/api-client.ts';

export type SavedReplies = z.infer<typeof savedReplyListSchema>;

export const SAVED_REPLIES_KEY = ['/saved-replies'];

export const useSavedReplies = () =>
  useQuery({ queryKey: SAVED_REPLIES_KEY, queryFn: () => api<SavedReplies>('GET', '/saved-replies') });

export const saveReply = (reply: { title: string; body: string }) => api('POST', '/saved-replies', reply);

export const deleteSavedReply = (id: string) => api('DELETE', `/saved-replies/${id}`);
