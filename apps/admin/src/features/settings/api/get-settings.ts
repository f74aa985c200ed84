import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { settingsSchema } from '@skyway/shared/schemas/admin/settings';
import { api } from '../../../lib/api-client.ts';

export type Settings = z.infer<typeof settingsSchema>;

export const SETTINGS_KEY = ['/settings'];

/** The operator settings. */
export const useSettings = () =>
  useQuery({ queryKey: SETTINGS_KEY, queryFn: () => api<Settings>('GET', '/settings') });
