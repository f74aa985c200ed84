import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer, ok } from '../../../test/network.ts';
import { renderScreen } from '../../../test/render.tsx';
import { signedInAs } from '../../../test/session.ts';
import type { Staff } from '../api/list-staff.ts';
import { StaffPage } from './staff-page.tsx';

const member = (n: number, status: Staff['status']): Staff => ({
  id: `00000000-0000-4000-8000-${String(100 + n).padStart(12, '0')}`,
  email: `member${n}@example.com`,
  role: 'support',
  language: 'en',
  status,
  created_at: '2026-03-01T08:00:00.000Z',
  last_sign_in_at: null,
});

describe('the staff page', () => {
  it('lists the staff the server sends, offering the link again only to the one still invited', async () => {
    signedInAs('admin');
    const items = [member(1, 'active'), member(2, 'invited')];
    answer('GET', '/staff', ok({ total: 2, page: 1, size: 20, items, total_capped: false }));
    await renderScreen(<StaffPage />);
    expect(await screen.findByText('member1@example.com')).toBeTruthy();
    expect(screen.getByText('member2@example.com')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Send the link again' })).toHaveLength(1);
    expect(screen.getByRole('button', { name: /Invite staff/ })).toBeTruthy();
  });
});
