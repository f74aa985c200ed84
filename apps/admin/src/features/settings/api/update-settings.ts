import type { z } from 'zod';
import type { settingsPatchRequest } from '@skyway/shared/schemas/admin/settings';
import { api } from '../../../lib/api-client.ts';
import type { Settings } from './get-settings.ts';

/** Saves the changed settings together, or none of them; answers the settings as they now are. */
export const updateSettings = (changes: z.input<typeof settingsPatchRequest>) =>
  api<Settings>('PATCH', '/settings', changes);
