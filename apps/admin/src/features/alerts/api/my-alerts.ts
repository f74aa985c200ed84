import { useQuery } from '@tanstack/react-query';
import type { MyAlerts, StaffAlertPreferencesRequest } from '@skyway/shared/schemas/admin/alerts';
import type { TelegramBindLink } from '@skyway/shared/schemas/telegram';
import { api } from '../../../lib/api-client.ts';

export const MY_ALERTS_KEY = ['/me/alerts'];

/** The signed-in member's alerts: their choice and their Telegram binding. */
export const useMyAlerts = () =>
  useQuery({ queryKey: MY_ALERTS_KEY, queryFn: () => api<MyAlerts>('GET', '/me/alerts') });

/** Sets the member's own channel, kinds and delivery. */
export const saveMyAlerts = (choice: StaffAlertPreferencesRequest) =>
  api<MyAlerts>('POST', '/me/alerts', choice);

/** A one-time link to the bot that binds the member's chat (10 minutes, used once). */
export const makeTelegramLink = () => api<TelegramBindLink>('POST', '/me/alerts/telegram/link', {});

/** Unbinds the member's chat: alerts come by mail. */
export const unbindTelegram = () => api<MyAlerts>('POST', '/me/alerts/telegram/unbind', {});
