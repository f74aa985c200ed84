import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  ticketCreateRequest,
  ticketListSchema,
  ticketThreadSchema,
} from '@skyway/shared/schemas/tickets';
import { callApi } from '../../../lib/api-client.ts';

export type TicketList = z.infer<typeof ticketListSchema>;
export type TicketThread = z.infer<typeof ticketThreadSchema>;
export type NewTicket = z.input<typeof ticketCreateRequest>;

/** How often the console asks for the list again: the side menu's mark for a new staff reply. */
export const TICKETS_REFETCH_MS = 60_000;

const listKey = ['tickets', 'list'] as const;
const threadKey = (id: string) => ['tickets', 'thread', id] as const;

/** The account's tickets, latest activity first, with the count holding unread replies. */
export function useTickets(options: { background?: boolean } = {}) {
  return useQuery({
    queryKey: listKey,
    queryFn: () => callApi<TicketList>('/web/ticket/list', { size: 50 }, { background: options.background }),
    refetchInterval: TICKETS_REFETCH_MS,
    refetchOnWindowFocus: true,
  });
}

/** A ticket's thread; reading it marks its replies read, so the list is read again. */
export function useTicketThread(id: string | null) {
  const client = useQueryClient();
  return useQuery({
    queryKey: threadKey(id ?? ''),
    enabled: id !== null,
    queryFn: async () => {
      const thread = await callApi<TicketThread>('/web/ticket/detail', { id });
      void client.invalidateQueries({ queryKey: listKey });
      return thread;
    },
  });
}

/** Opens a ticket; its refusal (a limit, an image) is shown in the form, not as a toast. */
export function useOpenTicket() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ticket: NewTicket) =>
      callApi<TicketThread>('/web/ticket/create', { ...ticket }, { silent: true }),
    onSuccess: (thread) => {
      client.setQueryData(threadKey(thread.id), thread);
      void client.invalidateQueries({ queryKey: listKey });
    },
  });
}

export function useReplyTicket(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (reply: { message: string; images: string[] }) =>
      callApi<TicketThread>('/web/ticket/reply', { id, ...reply }, { silent: true }),
    onSuccess: (thread) => {
      client.setQueryData(threadKey(id), thread);
      void client.invalidateQueries({ queryKey: listKey });
    },
  });
}

export function useCloseTicket(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => callApi<Record<string, never>>('/web/ticket/close', { id }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['tickets'] }),
  });
}

/** Saves an image of a ticket as a file: the server hands images out only as downloads. */
export async function downloadAttachment(attachment: { id: string; mime: string }): Promise<void> {
  const blob = await callApi<Blob>('/web/ticket/attachment', { id: attachment.id }, { file: true });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `${attachment.id}.${attachment.mime.split('/')[1] ?? 'img'}`;
  link.click();
  URL.revokeObjectURL(url);
}

/** A picked file as the call carries it: its bytes in base64 (the server reads the type from them). */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('could not read the file'));
    reader.readAsDataURL(file);
  });
}
