import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as ApiClient from '../../../lib/api-client.ts';
import { clearSession, startSession } from '../../../lib/session.ts';

const callApi = vi.fn();
vi.mock('../../../lib/api-client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof ApiClient>()),
  callApi: (...args: unknown[]) => callApi(...args) as unknown,
}));
const showSuccess = vi.fn();
const showError = vi.fn();
vi.mock('../../../lib/toast.ts', () => ({
  ERROR_SECONDS: 5,
  MESSAGE_SECONDS: 1.5,
  showSuccess: (...args: unknown[]) => showSuccess(...args) as unknown,
  showError: (...args: unknown[]) => showError(...args) as unknown,
}));

const { ApiError } = await import('../../../lib/api-client.ts');
const { TrialDialog } = await import('./trial-dialog.tsx');

const OPEN = { open_trial: '1', trial_minute: 120, invite_minute: 1440 };

function answer(conf: unknown, claim: () => Promise<unknown>) {
  callApi.mockImplementation((path: string) => {
    if (path === '/web/invite/conf')
      return conf instanceof Error ? Promise.reject(conf) : Promise.resolve(conf);
    if (path === '/web/invite/claim') return claim();
    return Promise.reject(new Error(`unexpected call ${path}`));
  });
}

function newClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

async function renderDialog(onClose = vi.fn(), client = newClient()) {
  await act(async () => {
    render(
      <QueryClientProvider client={client}>
        {/* No motion, so that the dialog's afterClose (which calls onClose) runs in happy-dom. */}
        <ConfigProvider theme={{ token: { motion: false } }}>
          <MemoryRouter initialEntries={['/invite']}>
            <Routes>
              <Route path="/invite" element={<TrialDialog onClose={onClose} />} />
              <Route path="/buy" element={<p>buy page</p>} />
            </Routes>
          </MemoryRouter>
        </ConfigProvider>
      </QueryClientProvider>,
    );
  });
  return onClose;
}

const claimCalls = () => callApi.mock.calls.filter(([path]) => path === '/web/invite/claim');

beforeEach(() => {
  callApi.mockReset();
  showSuccess.mockReset();
  showError.mockReset();
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  startSession({
    token: 'T',
    account: 'me@example.com',
    expire_user: 0,
    subscribe_type: 1,
    invite_code: 'ME',
    connections: 1,
  });
});

describe('TrialDialog', () => {
  it('appears when open_trial is "1", with the trial length in days and hours', async () => {
    answer({ ...OPEN, trial_minute: 2160 }, () => Promise.resolve({}));
    await renderDialog();
    const dialog = await screen.findByRole('dialog', {}, { timeout: 5000 });
    expect(dialog.textContent).toContain('Claim 1 day 12 hours of free access');
    expect(dialog.textContent).not.toContain('minutes');
    expect(callApi).toHaveBeenCalledWith('/web/invite/conf', {}, { silent: true });
  });

  it("waits for a fresh config although the trial's state display has an open one cached", async () => {
    const client = newClient();
    client.setQueryData(['invite-conf'], OPEN);
    let answerConf: (conf: unknown) => void = () => undefined;
    callApi.mockImplementation(() => new Promise((resolve) => (answerConf = resolve)));
    const onClose = await renderDialog(vi.fn(), client);
    await waitFor(() => expect(callApi).toHaveBeenCalledWith('/web/invite/conf', {}, { silent: true }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await act(async () => answerConf({ ...OPEN, open_trial: '0' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(screen.queryByRole('dialog')).toBeNull();
    // The fresh answer replaces the cached one, so the display learns that the trial closed.
    expect(client.getQueryData(['invite-conf'])).toEqual({ ...OPEN, open_trial: '0' });
  });

  it('never appears when open_trial is "0", and ends at once', async () => {
    answer({ ...OPEN, open_trial: '0' }, () => Promise.resolve({}));
    const onClose = await renderDialog();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('only logs a failed config call', async () => {
    answer(new ApiError(500, 'boom'), () => Promise.resolve({}));
    const onClose = await renderDialog();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(console.warn).toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(showError).not.toHaveBeenCalled();
  });

  it('claims when signed in: success message with the granted time, closes, goes to /buy', async () => {
    answer(OPEN, () => Promise.resolve({ trial_time: 1440, expire_user: 1_800_000_000 }));
    const onClose = await renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Claim now' }, { timeout: 5000 }));
    await screen.findByText('buy page');
    expect(claimCalls()).toHaveLength(1);
    expect(showSuccess).toHaveBeenCalledWith('Free trial claimed: 1 day added.', 1.5);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('goes to /buy without claiming when signed out', async () => {
    clearSession();
    answer(OPEN, () => Promise.resolve({ trial_time: 120, expire_user: 0 }));
    await renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Claim now' }, { timeout: 5000 }));
    await screen.findByText('buy page');
    expect(claimCalls()).toHaveLength(0);
    expect(showSuccess).not.toHaveBeenCalled();
  });

  it('"Not now" closes without claiming', async () => {
    answer(OPEN, () => Promise.resolve({}));
    const onClose = await renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Not now' }, { timeout: 5000 }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(claimCalls()).toHaveLength(0);
    expect(screen.queryByText('buy page')).toBeNull();
  });

  it('shows the server\'s "already claimed" message as an error and closes, staying on the page', async () => {
    const msg = 'You have already claimed the free trial';
    answer(OPEN, () => Promise.reject(new ApiError(409, msg, { reason: 'trial_claimed' })));
    const onClose = await renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Claim now' }, { timeout: 5000 }));
    await waitFor(() => expect(showError).toHaveBeenCalledWith(msg, 5));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(screen.queryByText('buy page')).toBeNull();
    expect(showSuccess).not.toHaveBeenCalled();
  });

  it('only logs any other failed claim and keeps the dialog open', async () => {
    answer(OPEN, () => Promise.reject(new ApiError(409, 'closed', { reason: 'trial_closed' })));
    const onClose = await renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Claim now' }, { timeout: 5000 }));
    await waitFor(() =>
      expect(console.warn).toHaveBeenCalledWith('Trial: the claim failed', expect.anything()),
    );
    expect(showError).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
