import type { z } from 'zod';
import type { MailStatus } from '@skyway/shared/mail';
import type { mailEntrySchema } from '@skyway/shared/schemas/admin/operations';
import { usePageList } from '../../../lib/use-page-list.ts';

export type Mail = z.infer<typeof mailEntrySchema>;
export type MailFilters = { status?: MailStatus; template?: string; to?: string };

export const MAIL_KEY = ['/mail'];

/** The outbox a page at a time, newest first until turned, by status, template or recipient. */
export const useMail = (filters: MailFilters) => usePageList<Mail>('/mail', filters, { sortable: true });
