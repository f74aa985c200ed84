import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatDateTime } from '@skyway/shared/dates';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INVITE_CONF_QUERY_KEY } from '../../../lib/use-invite-conf.ts';
import { answer, type Answer, noReply, ok, requestsTo, sentTo } from '../../../test/network.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { signIn } from '../../../test/user-info.ts';
import { DESKTOP_WIDTH, PHONE_WIDTH, setViewportWidth } from '../../../test/viewport.ts';

vi.mock('../../../lib/toast.ts', () => import('../../../test/fake-toast.ts'));

const { showError, showSuccess } = await import('../../../test/fake-toast.ts');
const { InvitationsPage } = await import('./invitations-page.tsx');

const ROWS = [
  { account: 'bo***@example.com', complete_time: 1_800_000_000, trial_minute: 1440, claimed: false },
  { account: 'ca***@qq.com', complete_time: 1_790_000_000, trial_minute: 60, claimed: true },
];

const CONF = { open_trial: '1', trial_minute: 1440, invite_minute: 1440 };

function listReply(overrides: Record<string, unknown> = {}) {
  return {
    total: 2,
    unclaimed_users: 1,
    unclaimed_minutes: 1440,
    invite_code: 'INV123',
    list: ROWS,
    ...overrides,
  };
}

/** The server: the list reply, the invitation config, and the withdrawal's reply. */
function answerInvitations(list: Answer, conf: Answer = ok(CONF), withdraw: Answer = ok()) {
  answer('/web/invite/list', list);
  answer('/web/invite/conf', conf);
  answer('/web/invite/withdraw', withdraw);
}

async function renderPage(firstRow = 'bo***@example.com') {
  const rendered = await renderWithProviders(<InvitationsPage />);
  await screen.findByText(firstRow);
  return rendered;
}

const listCalls = () => requestsTo('/web/invite/list');
const originalClipboard = Object.getOwnPropertyDescriptor(navigator, 'clipboard');

function setClipboard(value: unknown) {
  Object.defineProperty(navigator, 'clipboard', { value, configurable: true });
}

beforeEach(() => {
  signIn({ invite_code: 'STORED' });
});

afterEach(() => {
  setViewportWidth(DESKTOP_WIDTH);
  if (originalClipboard) Object.defineProperty(navigator, 'clipboard', originalClipboard);
  Reflect.deleteProperty(document, 'execCommand');
});

describe('InvitationsPage', () => {
  it('shows the summary, the share link from the list reply and the rows with formatted times and durations', async () => {
    answerInvitations(ok(listReply()));
    await renderPage();
    expect(await sentTo('/web/invite/list')).toContainEqual({ page: 1, size: 10 });
    expect(screen.getByText('Total referrals')).toBeTruthy();
    expect(screen.getByText('Unclaimed users')).toBeTruthy();
    expect(screen.getByText('Unclaimed trial time').closest('.ant-statistic')?.textContent).toBe(
      'Unclaimed trial time1 day',
    );
    const link = screen.getByLabelText<HTMLInputElement>('Share link');
    expect(link.value).toBe(`${window.location.origin}/login?formType=regist&invite_code=INV123`);

    const first = screen.getByText('bo***@example.com').closest('tr');
    const second = screen.getByText('ca***@qq.com').closest('tr');
    if (!first || !second) throw new Error('rows not found');
    expect(within(first).getByText(formatDateTime(1_800_000_000))).toBeTruthy();
    expect(formatDateTime(1_800_000_000)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(within(first).getByText('1 day')).toBeTruthy();
    expect(within(first).getByText('Unclaimed')).toBeTruthy();
    expect(within(second).getByText('1 hour')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/1440|minutes/);
    expect(within(second).getByText('Claimed')).toBeTruthy();
  });

  it('asks the server for the page the pagination moves to', async () => {
    answerInvitations(ok(listReply({ total: 25 })));
    await renderPage();
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(async () => expect(await sentTo('/web/invite/list')).toContainEqual({ page: 2, size: 10 }));
  });

  it('falls back to the stored invite code while the reply has none', async () => {
    answerInvitations(ok(listReply({ invite_code: '' })));
    await renderPage();
    expect(screen.getByLabelText<HTMLInputElement>('Share link').value).toContain('invite_code=STORED');
  });

  it('copies the link and says "Copy successful" for 1.5 s', async () => {
    answerInvitations(ok(listReply()));
    const writeText = vi.fn().mockResolvedValue(undefined);
    setClipboard({ writeText });
    await renderPage();
    fireEvent.click(screen.getByRole('button', { name: /Copy link/ }));
    await waitFor(() => expect(showSuccess).toHaveBeenCalledWith('Copy successful', 1.5));
    expect(writeText).toHaveBeenCalledWith(
      `${window.location.origin}/login?formType=regist&invite_code=INV123`,
    );
    expect(showError).not.toHaveBeenCalled();
  });

  it('uses the hidden-textarea copy when the Clipboard API is missing', async () => {
    answerInvitations(ok(listReply()));
    setClipboard(undefined);
    let copied = '';
    const execCommand = vi.fn((command: string) => {
      copied = document.querySelector('textarea')?.value ?? '';
      return command === 'copy';
    });
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    await renderPage();
    fireEvent.click(screen.getByRole('button', { name: /Copy link/ }));
    await waitFor(() => expect(showSuccess).toHaveBeenCalledWith('Copy successful', 1.5));
    expect(execCommand).toHaveBeenCalledWith('copy');
    expect(copied).toContain('invite_code=INV123');
    expect(document.querySelector('textarea')).toBeNull();
  });

  it('says "Copy failed" when neither way can copy', async () => {
    answerInvitations(ok(listReply()));
    setClipboard({ writeText: vi.fn().mockRejectedValue(new Error('denied')) });
    Object.defineProperty(document, 'execCommand', { value: vi.fn(() => false), configurable: true });
    await renderPage();
    fireEvent.click(screen.getByRole('button', { name: /Copy link/ }));
    await waitFor(() => expect(showError).toHaveBeenCalledWith('Copy failed', 5));
    expect(showSuccess).not.toHaveBeenCalled();
  });

  it('disables withdraw when nothing is unclaimed', async () => {
    answerInvitations(ok(listReply({ unclaimed_minutes: 0, unclaimed_users: 0 })));
    await renderPage();
    expect(screen.getByRole('button', { name: /Withdraw trial time/ }).hasAttribute('disabled')).toBe(true);
  });

  it('withdraws, reports the time added in days and hours and reloads the list', async () => {
    answerInvitations(
      () =>
        ok(
          listCalls().length > 1
            ? listReply({
                unclaimed_users: 0,
                unclaimed_minutes: 0,
                list: [{ ...ROWS[0], claimed: true }, ROWS[1]],
              })
            : listReply(),
        ),
      ok(CONF),
      ok({ trial_time: 2160, expire_user: 1_800_086_400 }),
    );
    await renderPage();
    const button = screen.getByRole('button', { name: /Withdraw trial time/ });
    expect(button.hasAttribute('disabled')).toBe(false);
    fireEvent.click(button);
    await waitFor(() => expect(showSuccess).toHaveBeenCalledWith('1 day 12 hours added to your plan.', 1.5));
    expect(await sentTo('/web/invite/withdraw')).toEqual([{}]);
    await waitFor(() => expect(listCalls()).toHaveLength(2));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /Withdraw trial time/ }).hasAttribute('disabled')).toBe(true),
    );
    expect(screen.queryByText('Unclaimed')).toBeNull();
  });

  it('says what each invitation earns, from the invitation config', async () => {
    answerInvitations(ok(listReply()), ok({ ...CONF, invite_minute: 2880 }));
    await renderPage();
    await screen.findByText(
      'For every friend who registers through your link, you get 2 days of access.',
      {},
    );
    expect(await sentTo('/web/invite/conf')).toContainEqual({});
  });

  it('keeps the general hint when the config cannot be read', async () => {
    answerInvitations(ok(listReply()), noReply);
    const { queryClient } = await renderPage();
    await waitFor(() => expect(requestsTo('/web/invite/conf')).not.toHaveLength(0));
    await waitFor(() => expect(queryClient.getQueryState(INVITE_CONF_QUERY_KEY)?.status).toBe('error'));
    expect(screen.getByText(/Friends who register through your link earn you free time/)).toBeTruthy();
    expect(screen.queryByText(/you get/)).toBeNull();
    expect(showError).not.toHaveBeenCalled();
  });

  it('on a phone lists cards, claim status and duration first, without a sideways-scrolling table', async () => {
    setViewportWidth(PHONE_WIDTH);
    answerInvitations(ok(listReply()));
    await renderPage();
    expect(screen.queryByRole('table')).toBeNull();
    const [first, second, ...rest] = within(
      screen.getByRole('list', { name: 'Invited friends' }),
    ).getAllByRole('listitem');
    if (!first || !second) throw new Error('cards not found');
    expect(rest).toHaveLength(0);
    const texts = (card: HTMLElement, role: 'term' | 'definition') =>
      within(card)
        .getAllByRole(role)
        .map((element) => element.textContent);
    expect(texts(first, 'term')).toEqual(['Claim status', 'Trial duration', 'Account', 'Completed']);
    expect(texts(first, 'definition')).toEqual([
      'Unclaimed',
      '1 day',
      'bo***@example.com',
      formatDateTime(1_800_000_000),
    ]);
    expect(texts(second, 'definition').slice(0, 2)).toEqual(['Claimed', '1 hour']);
  });

  it('on a phone pages through the cards with the server', async () => {
    setViewportWidth(PHONE_WIDTH);
    answerInvitations(ok(listReply({ total: 25 })));
    await renderPage();
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(async () => expect(await sentTo('/web/invite/list')).toContainEqual({ page: 2, size: 10 }));
  });

  it('with no invitations yet, says so and offers to copy the invite link', async () => {
    answerInvitations(ok(listReply({ total: 0, unclaimed_users: 0, unclaimed_minutes: 0, list: [] })));
    const writeText = vi.fn().mockResolvedValue(undefined);
    setClipboard({ writeText });
    await renderPage('No invitations yet');
    expect(screen.queryByRole('table')).toBeNull();
    const copy = screen.getByRole('button', { name: /Copy invite link/ });
    expect(copy.classList.contains('ant-btn-primary')).toBe(true);
    fireEvent.click(copy);
    await waitFor(() => expect(showSuccess).toHaveBeenCalledWith('Copy successful', 1.5));
    expect(writeText).toHaveBeenCalledWith(
      `${window.location.origin}/login?formType=regist&invite_code=INV123`,
    );
  });
});
