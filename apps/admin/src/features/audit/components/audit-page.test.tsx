import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer, ok, requestsTo } from '../../../test/network.ts';
import { renderScreen } from '../../../test/render.tsx';
import { signedInAs } from '../../../test/session.ts';
import type { AuditEntry } from '../api/list-audit.ts';
import { AuditPage } from './audit-page.tsx';

const entry: AuditEntry = {
  id: 7,
  at: '2026-03-01T08:00:00.000Z',
  staff_id: '00000000-0000-4000-8000-000000000009',
  staff_email: 'finance@example.com',
  role: 'finance',
  action: 'payment.refund',
  target_type: 'payment',
  target_id: 'pay-1',
  before: null,
  after: null,
  ip: '203.0.113.5',
};

describe('the audit log', () => {
  it('shows who did what to which target, and filters by action on the server', async () => {
    signedInAs('admin');
    answer('GET', '/audit', ok({ total: 1, page: 1, size: 20, items: [entry], total_capped: false }));
    await renderScreen(<AuditPage />);
    expect(await screen.findByText('finance@example.com · Finance')).toBeTruthy();
    expect(screen.getByText('payment pay-1')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('Action'), { target: { value: ' payment.refund ' } });
    fireEvent.keyDown(screen.getByPlaceholderText('Action'), { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(async () => {
      const actions = (await requestsTo('GET', '/audit')).map((call) => call.url.searchParams.get('action'));
      expect(actions).toContain('payment.refund');
    });
  });
});
