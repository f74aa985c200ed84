import type { UserSection, UserSectionEntry } from '@skyway/shared/schemas/admin/users';
import { usePageList } from '../../../lib/use-page-list.ts';

export type SectionEntry<Kind extends UserSection> = Extract<UserSectionEntry, { kind: Kind }>;

/** One of an account's lists (its ledger, orders, devices…), a page at a time. */
export const useUserSection = <Kind extends UserSection>(id: string, section: Kind) =>
  usePageList<SectionEntry<Kind>>(`/users/${id}/${section}`);
