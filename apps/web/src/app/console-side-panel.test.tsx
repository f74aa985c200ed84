import { Suspense } from 'react';
import { act, fireEvent, isInaccessible, render, screen, waitFor, within } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import { formatDateTime } from '@skyway/shared/dates';
import type { UserInfo } from '@skyway/shared/user';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as ApiClient from '../lib/api-client.ts';
import { startSession } from '../lib/session.ts';
import { userInfo } from '../test/user-info.ts';

const callApi = vi.fn();
vi.mock('../lib/api-client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof ApiClient>()),
  callApi: (...args: unknown[]) => callApi(...args) as unknown,
}));
const showSuccess = vi.fn();
vi.mock('../lib/toast.ts', () => ({
  ERROR_SECONDS: 5,
  MESSAGE_SECONDS: 1.5,
  showSuccess: (...args: unknown[]) => showSuccess(...args) as unknown,
  showError: vi.fn(),
}));

const { ApiError } = await import('../lib/api-client.ts');
const { ConsoleLayout } = await import('./console-layout.tsx');
const { queryClient } = await import('./query-client.ts');

const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);
const OPEN = { open_trial: '1', trial_minute: 1440, invite_minute: 1440 };
const CLOSED = { ...OPEN, open_trial: '0' };

interface Server {
  info: () => Promise<UserInfo>;
  conf: unknown;
  claim?: () => Promise<unknown>;
}

function serve(server: Server) {
  callApi.mockImplementation((path: string) => {
    switch (path) {
      case '/web/site/conf':
        return Promise.resolve({ site_name: 'Skyway', support_email: '', downloads: [], signing: false });
      case '/web/user/info':
        return server.info();
      case '/web/invite/conf':
        return server.conf instanceof Error ? Promise.reject(server.conf) : Promise.resolve(server.conf);
      case '/web/invite/claim':
        return server.claim?.() ?? Promise.reject(new Error('no claim expected'));
      default:
        return Promise.reject(new Error(`unexpected call ${path}`));
    }
  });
}

async function renderConsole(path = '/invite') {
  await act(async () => {
    render(
      // No motion, so that closed dialogs leave the page in happy-dom.
      <ConfigProvider theme={{ token: { motion: false } }}>
        <Suspense fallback={<p>loading console</p>}>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route element={<ConsoleLayout />}>
                <Route path="/invite" element={<p>invite page</p>} />
                <Route path="/buy" element={<p>buy page</p>} />
              </Route>
            </Routes>
          </MemoryRouter>
        </Suspense>
      </ConfigProvider>,
    );
  });
  return screen.findByRole('region', { name: 'Subscription' }, { timeout: 5000 });
}

const claimButton = (scope: HTMLElement) => within(scope).queryByRole('button', { name: /Claim free trial/ });
const findClaimButton = (scope: HTMLElement) =>
  within(scope).findByRole('button', { name: /Claim free trial/ }, { timeout: 5000 });
const plansLink = (scope: HTMLElement) => within(scope).queryByRole('link', { name: /See plans/ });

async function openUserInfo() {
  fireEvent.click(screen.getByRole('button', { name: /account menu/ }));
  fireEvent.click(await screen.findByRole('menuitem', { name: /User info/ }));
  return screen.findByRole('dialog', { name: 'User info' });
}

beforeEach(() => {
  queryClient.clear();
  callApi.mockReset();
  showSuccess.mockReset();
  startSession({
    token: 'T',
    account: 'me@example.com',
    expire_user: 0,
    subscribe_type: 1,
    invite_code: 'ME',
    connections: 1,
  });
});

// The whole console renders in each test: give them room on a busy machine.
describe("the side panel's trial and next step", { timeout: 20_000 }, () => {
  it('offers the trial under "No active plan"; a claim turns it into "Claimed" with its end', async () => {
    const end = now() + DAY;
    let claimed = false;
    serve({
      info: () => Promise.resolve(claimed ? userInfo({ expire_user: end, trial_end: end }) : userInfo()),
      conf: OPEN,
      claim: () => {
        claimed = true;
        return Promise.resolve({ trial_time: 1440, expire_user: end });
      },
    });
    const status = await renderConsole();
    const button = await findClaimButton(status);
    expect(status.textContent).toContain('No active plan');
    expect(plansLink(status)).toBeNull();

    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Free trial' }, { timeout: 5000 });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Claim now' }));
    await screen.findByText('buy page');
    expect(showSuccess).toHaveBeenCalledWith('Free trial claimed: 1 day added.', 1.5);
    await waitFor(() => expect(status.textContent).toContain(`Trial ends ${formatDateTime(end)}`));
    expect(status.textContent).toContain('Claimed');
    expect(claimButton(status)).toBeNull();
    expect(status.textContent).toContain(formatDateTime(end));
  });

  it('turns into "Claimed" when the server says another tab has claimed it', async () => {
    const end = now() + DAY;
    let claimed = false;
    serve({
      info: () => Promise.resolve(claimed ? userInfo({ expire_user: end, trial_end: end }) : userInfo()),
      conf: OPEN,
      claim: () => {
        claimed = true;
        return Promise.reject(
          new ApiError(409, 'You have already claimed the free trial', { reason: 'trial_claimed' }),
        );
      },
    });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const status = await renderConsole();
    fireEvent.click(await findClaimButton(status));
    fireEvent.click(await screen.findByRole('button', { name: 'Claim now' }, { timeout: 5000 }));
    await waitFor(() => expect(status.textContent).toContain(`Trial ends ${formatDateTime(end)}`));
    expect(claimButton(status)).toBeNull();
  });

  it('shows a placeholder, not a button, while the user info loads', async () => {
    serve({ info: () => new Promise<UserInfo>(() => undefined), conf: OPEN });
    const status = await renderConsole();
    await waitFor(() => expect(callApi).toHaveBeenCalledWith('/web/invite/conf', {}, { silent: true }));
    expect(within(status).getByRole('status').textContent).toBe('Loading…');
    expect(claimButton(status)).toBeNull();
    expect(plansLink(status)).toBeNull();
  });

  it('closed by the operator: no button but the reason, and the plans as the next step', async () => {
    serve({ info: () => Promise.resolve(userInfo()), conf: CLOSED });
    const status = await renderConsole();
    await within(status).findByText('The free trial is not available right now', {}, { timeout: 5000 });
    expect(claimButton(status)).toBeNull();
    fireEvent.click(within(status).getByRole('link', { name: /See plans/ }));
    await screen.findByText('buy page');
    // On /buy the plans are on the page itself.
    expect(plansLink(status)).toBeNull();
  });

  it('offers no trial when its config cannot be read, but the plans', async () => {
    serve({ info: () => Promise.resolve(userInfo()), conf: new Error('down') });
    const status = await renderConsole();
    await within(status).findByRole('link', { name: /See plans/ }, { timeout: 5000 });
    expect(claimButton(status)).toBeNull();
    expect(within(status).queryByRole('status')).toBeNull();
  });

  it('claimed and ended, without access: "Claimed", when it ended, and the plans', async () => {
    const end = now() - DAY;
    serve({ info: () => Promise.resolve(userInfo({ expire_user: end, trial_end: end })), conf: OPEN });
    const status = await renderConsole();
    await waitFor(() => expect(status.textContent).toContain(`Trial ended ${formatDateTime(end)}`), {
      timeout: 5000,
    });
    expect(status.textContent).toContain('Claimed');
    expect(claimButton(status)).toBeNull();
    expect(plansLink(status)).toBeTruthy();
  });

  it('claimed, with access: "Claimed" and its end, no plans button', async () => {
    const end = now() + 3 * DAY;
    startSession({
      token: 'T',
      account: 'me@example.com',
      expire_user: end,
      subscribe_type: 1,
      invite_code: 'ME',
      connections: 1,
    });
    serve({ info: () => Promise.resolve(userInfo({ expire_user: end, trial_end: end })), conf: CLOSED });
    const status = await renderConsole();
    await waitFor(() => expect(status.textContent).toContain(`Trial ends ${formatDateTime(end)}`), {
      timeout: 5000,
    });
    expect(status.textContent).not.toContain('not available');
    expect(claimButton(status)).toBeNull();
    expect(plansLink(status)).toBeNull();
  });
});

describe("the user info dialog's trial", { timeout: 20_000 }, () => {
  it('offers the claim while it can be claimed, and opens the trial dialog', async () => {
    serve({ info: () => Promise.resolve(userInfo()), conf: OPEN });
    await renderConsole();
    const info = await openUserInfo();
    const button = await findClaimButton(info);
    fireEvent.click(button);
    // antd gives every dialog title the same id under test, so the trial dialog is found by its button.
    await screen.findByRole('button', { name: 'Claim now' }, { timeout: 5000 });
    await waitFor(() => expect(isInaccessible(info)).toBe(true));
  });

  it('says "Claimed" with the trial\'s end once claimed', async () => {
    const end = now() + DAY;
    serve({ info: () => Promise.resolve(userInfo({ expire_user: end, trial_end: end })), conf: OPEN });
    await renderConsole();
    const info = await openUserInfo();
    await waitFor(() => expect(info.textContent).toContain(`Trial ends ${formatDateTime(end)}`), {
      timeout: 5000,
    });
    expect(info.textContent).toContain('Claimed');
    expect(claimButton(info)).toBeNull();
  });

  it('gives the reason when the trial is closed', async () => {
    serve({ info: () => Promise.resolve(userInfo()), conf: CLOSED });
    await renderConsole();
    const info = await openUserInfo();
    await within(info).findByText('The free trial is not available right now', {}, { timeout: 5000 });
    expect(claimButton(info)).toBeNull();
  });
});
