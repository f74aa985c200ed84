import { ALL_PERMISSIONS, can, type StaffRole } from '@skyway/shared/staff';
import type { StaffSession } from '../lib/session.ts';
import { answer, ok } from './network.ts';

/** A signed-in member of the role, with that role's permissions, as the server's session reply says. */
export function sessionOf(role: StaffRole): StaffSession {
  return {
    staff: {
      id: '00000000-0000-4000-8000-000000000001',
      email: `${role}@example.com`,
      role,
      language: 'en',
      status: 'active',
      created_at: '2026-01-01T00:00:00.000Z',
      last_sign_in_at: null,
    },
    csrf_token: 'csrf-token',
    permissions: ALL_PERMISSIONS.filter((permission) => can(role, permission)),
    expires_at: '2026-12-31T00:00:00.000Z',
    recovery_codes_left: 10,
    old_recovery_codes_left: 0,
  };
}

/** The server answers that a member of the role is signed in. */
export function signedInAs(role: StaffRole): StaffSession {
  const session = sessionOf(role);
  answer('GET', '/session', ok(session));
  return session;
}
