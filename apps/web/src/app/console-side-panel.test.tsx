import { fireEvent, isInaccessible, screen, waitFor, within } from '@testing-library/react';
import { formatDateTime } from '@skyway/shared/dates';
import type { Envelope } from '@skyway/shared/envelope';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, type Answer, never, noReply, ok, refused, requestsTo } from '../test/network.ts';
import { renderWithProviders } from '../test/render.tsx';
import { signIn, userInfo } from '../test/user-info.ts';

vi.mock('../lib/toast.ts', () => import('../test/fake-toast.ts'));

const { showError, showSuccess } = await import('../test/fake-toast.ts');
const { ConsoleLayout } = await import('./console-layout.tsx');
const { queryClient } = await import('./query-client.ts');

const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);
const OPEN = { open_trial: '1', trial_minute: 1440, invite_minute: 1440 };
const CLOSED = { ...OPEN, open_trial: '0' };

/** The server: what `/web/user/info` and `/web/invite/conf` answer. */
function serve({ info, conf }: { info: Answer; conf: Answer }) {
  answer('/web/user/info', info);
  answer('/web/invite/conf', conf);
}

/**
 * An open trial that this account has not claimed: the claim answers `claimReply`, and from then on
 * the user info has it claimed, ending a day from now. Returns that end.
 */
function serveUnclaimedTrial(claimReply: (end: number) => Envelope) {
  const end = now() + DAY;
  let claimed = false;
  serve({
    info: () => ok(claimed ? userInfo({ expire_user: end, trial_end: end }) : userInfo()),
    conf: ok(OPEN),
  });
  answer('/web/invite/claim', () => {
    claimed = true;
    return claimReply(end);
  });
  return end;
}

async function renderConsole(path = '/invite') {
  await renderWithProviders(
    [
      {
        element: <ConsoleLayout />,
        children: [
          { path: '/invite', element: <p>invite page</p> },
          { path: '/buy', element: <p>buy page</p> },
        ],
      },
    ],
    { url: path },
  );
  return screen.findByRole('region', { name: 'Subscription' });
}

const claimButton = (scope: HTMLElement) => within(scope).queryByRole('button', { name: /Claim free trial/ });
const findClaimButton = (scope: HTMLElement) =>
  within(scope).findByRole('button', { name: /Claim free trial/ });
const plansLink = (scope: HTMLElement) => within(scope).queryByRole('link', { name: /See plans/ });

async function openUserInfo() {
  fireEvent.click(screen.getByRole('button', { name: /account menu/ }));
  fireEvent.click(await screen.findByRole('menuitem', { name: /User info/ }));
  return screen.findByRole('dialog', { name: 'User info' });
}

beforeEach(() => {
  queryClient.clear();
  signIn();
  // The header's bell; its own tests are in features/notices.
  answer('/web/notice/list', ok({ unread: 0, list: [] }));
  // The side menu's mark for unread ticket replies; its own tests are in features/support.
  answer('/web/ticket/list', ok({ total: 0, unread: 0, list: [] }));
  // The account dialog's Telegram card; its own tests are in features/telegram.
  answer(
    '/web/telegram/binding',
    ok({ available: false, bound: false, mail_off: false, bot_username: null }),
  );
});

// The whole console renders in each test: give them room on a busy machine.
describe("the side panel's trial and next step", () => {
  it('offers the trial under "No active plan"; a claim turns it into "Claimed" with its end', async () => {
    const end = serveUnclaimedTrial((expiry) => ok({ trial_time: 1440, expire_user: expiry }));
    const status = await renderConsole();
    const button = await findClaimButton(status);
    expect(status.textContent).toContain('No active plan');
    expect(plansLink(status)).toBeNull();

    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Free trial' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Claim now' }));
    await screen.findByText('buy page');
    expect(showSuccess).toHaveBeenCalledWith('Free trial claimed: 1 day added.', 1.5);
    await waitFor(() => expect(status.textContent).toContain(`Trial ends ${formatDateTime(end)}`));
    expect(status.textContent).toContain('Claimed');
    expect(claimButton(status)).toBeNull();
    expect(status.textContent).toContain(formatDateTime(end));
  });

  it('turns into "Claimed" when the server says another tab has claimed it', async () => {
    const end = serveUnclaimedTrial(() =>
      refused(409, 'You have already claimed the free trial', { reason: 'trial_claimed' }),
    );
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const status = await renderConsole();
    fireEvent.click(await findClaimButton(status));
    fireEvent.click(await screen.findByRole('button', { name: 'Claim now' }));
    await waitFor(() => expect(status.textContent).toContain(`Trial ends ${formatDateTime(end)}`));
    expect(claimButton(status)).toBeNull();
  });

  it('shows a placeholder, not a button, while the user info loads', async () => {
    serve({ info: never, conf: ok(OPEN) });
    const status = await renderConsole();
    await waitFor(() => expect(requestsTo('/web/invite/conf')).not.toHaveLength(0));
    expect(within(status).getByRole('status').textContent).toBe('Loading…');
    expect(claimButton(status)).toBeNull();
    expect(plansLink(status)).toBeNull();
  });

  it('closed by the operator: no button but the reason, and the plans as the next step', async () => {
    serve({ info: ok(userInfo()), conf: ok(CLOSED) });
    const status = await renderConsole();
    await within(status).findByText('The free trial is not available right now');
    expect(claimButton(status)).toBeNull();
    fireEvent.click(within(status).getByRole('link', { name: /See plans/ }));
    await screen.findByText('buy page');
    // On /buy the plans are on the page itself.
    expect(plansLink(status)).toBeNull();
  });

  it('offers no trial when its config cannot be read, but the plans', async () => {
    serve({ info: ok(userInfo()), conf: noReply });
    const status = await renderConsole();
    await within(status).findByRole('link', { name: /See plans/ });
    expect(claimButton(status)).toBeNull();
    expect(within(status).queryByRole('status')).toBeNull();
    expect(showError).not.toHaveBeenCalled();
  });

  it('claimed and ended, without access: "Claimed", when it ended, and the plans', async () => {
    const end = now() - DAY;
    serve({ info: ok(userInfo({ expire_user: end, trial_end: end })), conf: ok(OPEN) });
    const status = await renderConsole();
    await waitFor(() => expect(status.textContent).toContain(`Trial ended ${formatDateTime(end)}`));
    expect(status.textContent).toContain('Claimed');
    expect(claimButton(status)).toBeNull();
    expect(plansLink(status)).toBeTruthy();
  });

  it('claimed, with access: "Claimed" and its end, no plans button', async () => {
    const end = now() + 3 * DAY;
    signIn({ expire_user: end });
    serve({ info: ok(userInfo({ expire_user: end, trial_end: end })), conf: ok(CLOSED) });
    const status = await renderConsole();
    await waitFor(() => expect(status.textContent).toContain(`Trial ends ${formatDateTime(end)}`));
    expect(status.textContent).not.toContain('not available');
    expect(claimButton(status)).toBeNull();
    expect(plansLink(status)).toBeNull();
  });
});

describe("the user info dialog's trial", () => {
  it('offers the claim while it can be claimed, and opens the trial dialog', async () => {
    serve({ info: ok(userInfo()), conf: ok(OPEN) });
    await renderConsole();
    const info = await openUserInfo();
    const button = await findClaimButton(info);
    fireEvent.click(button);
    // antd gives every dialog title the same id under test, so the trial dialog is found by its button.
    await screen.findByRole('button', { name: 'Claim now' });
    await waitFor(() => expect(isInaccessible(info)).toBe(true));
  });

  it('says "Claimed" with the trial\'s end once claimed', async () => {
    const end = now() + DAY;
    serve({ info: ok(userInfo({ expire_user: end, trial_end: end })), conf: ok(OPEN) });
    await renderConsole();
    const info = await openUserInfo();
    await waitFor(() => expect(info.textContent).toContain(`Trial ends ${formatDateTime(end)}`));
    expect(info.textContent).toContain('Claimed');
    expect(claimButton(info)).toBeNull();
  });

  it('gives the reason when the trial is closed', async () => {
    serve({ info: ok(userInfo()), conf: ok(CLOSED) });
    await renderConsole();
    const info = await openUserInfo();
    await within(info).findByText('The free trial is not available right now');
    expect(claimButton(info)).toBeNull();
  });
});
