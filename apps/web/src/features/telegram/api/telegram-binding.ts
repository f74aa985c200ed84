import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TelegramBindLink, TelegramBinding } from '@skyway/shared/schemas/telegram';
import { callApi } from '../../../lib/api-client.ts';

const KEY = ['telegram-binding'];

/**
 * Whether the site has a bot and this account is bound to it. While a link is out it is read every
 * few seconds, so the card turns to "bound" once the customer pressed Start in Telegram.
 */
export function useTelegramBinding(waitingForStart: boolean) {
  return useQuery({
    queryKey: KEY,
    queryFn: () => callApi<TelegramBinding>('/web/telegram/binding'),
    refetchInterval: waitingForStart ? 3_000 : false,
  });
}

/** A one-time deep link to the bot (10 minutes). */
export function useTelegramLink() {
  return useMutation({ mutationFn: () => callApi<TelegramBindLink>('/web/telegram/link') });
}

/** Unbinds, or sets whether reminders and notices also come by mail; the card shows the answer. */
export function useTelegramChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: { unbind: true } | { mail_off: boolean }) =>
      'unbind' in change
        ? callApi<TelegramBinding>('/web/telegram/unbind')
        : callApi<TelegramBinding>('/web/telegram/mail', change),
    onSuccess: (binding) => queryClient.setQueryData(KEY, binding),
  });
}
