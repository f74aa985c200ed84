import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer, ok } from '../../../test/network.ts';
import { renderScreen } from '../../../test/render.tsx';
import { signedInAs } from '../../../test/session.ts';
import type { Jobs } from '../api/get-jobs.ts';
import { JobsPage } from './jobs-page.tsx';

const jobs: Jobs = [
  {
    name: 'expire-orders',
    every_seconds: 60,
    runs: [
      {
        started_at: '2026-03-01T08:00:00.000Z',
        finished_at: '2026-03-01T08:00:01.000Z',
        succeeded: false,
        result: null,
        error: 'database away',
      },
    ],
  },
  { name: 'send-reminders', every_seconds: 0, runs: [] },
];

describe('the jobs page', () => {
  it('shows each job the server sends, how often it runs and how its runs ended', async () => {
    signedInAs('admin');
    answer('GET', '/jobs', ok(jobs));
    await renderScreen(<JobsPage />);
    expect(await screen.findByText('expire-orders')).toBeTruthy();
    expect(screen.getByText('Every 60 s')).toBeTruthy();
    expect(screen.getByText('Failed')).toBeTruthy();
    expect(screen.getByText('send-reminders')).toBeTruthy();
    expect(screen.getByText('Off on this instance')).toBeTruthy();
  });

  it('tells a role without the permission that the page is not theirs', async () => {
    signedInAs('support');
    await renderScreen(<JobsPage />);
    expect(await screen.findByText('Your role does not allow this page')).toBeTruthy();
  });
});
