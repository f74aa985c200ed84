import type { z } from 'zod';
import { isLanguage } from '@skyway/shared/languages';
import type { staffSchema } from '@skyway/shared/schemas/admin/staff';
import type { StaffRow } from '../../db/schema/index.ts';

export function presentStaff(member: StaffRow): z.infer<typeof staffSchema> {
  return {
    id: member.id,
    email: member.email,
    role: member.role,
    language: isLanguage(member.language) ? member.language : 'zh',
    status: member.disabledAt ? 'disabled' : member.setUpAt ? 'active' : 'invited',
    created_at: member.createdAt.toISOString(),
    last_sign_in_at: member.lastSignInAt?.toISOString() ?? null,
  };
}
