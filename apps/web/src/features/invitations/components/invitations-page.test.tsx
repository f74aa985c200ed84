import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { formatDateTime } from '@skyway/shared/dates';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSession } from '../../../lib/session.ts';
import { DESKTOP_WIDTH, PHONE_WIDTH, setViewportWidth } from '../../../test/viewport.ts';

const callApi = vi.fn();
vi.mock('../../../lib/api-client.ts', () => ({
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

/** The server: the list reply (or a function of the call), and the invitation config. */
function answer(list: unknown, conf: unknown = CONF) {
  callApi.mockImplementation((path: string) => {
    if (path === '/web/invite/conf')
      return conf instanceof Error ? Promise.reject(conf) : Promise.resolve(conf);
    return Promise.resolve(typeof list === 'function' ? (list as (path: string) => unknown)(path) : list);
  });
}

async function renderPage(firstRow = 'bo***@example.com') {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  await act(async () => {
    render(
      <QueryClientProvider client={client}>
        <InvitationsPage />
      </QueryClientProvider>,
    );
  });
  await screen.findByText(firstRow, {}, { timeout: 5000 });
}

const listCalls = () => callApi.mock.calls.filter(([path]) => path === '/web/invite/list');
const originalClipboard = Object.getOwnPropertyDescriptor(navigator, 'clipboard');

function setClipboard(value: unknown) {
  Object.defineProperty(navigator, 'clipboard', { value, configurable: true });
}

beforeEach(() => {
  callApi.mockReset();
  showSuccess.mockReset();
  showError.mockReset();
  startSession({
    token: 'T',
    account: 'me@example.com',
    expire_user: 0,
    subscribe_type: 1,
    invite_code: 'STORED',
    connections: 1,
  });
});

afterEach(() => {
  setViewportWidth(DESKTOP_WIDTH);
  if (originalClipboard) Object.defineProperty(navigator, 'clipboard', originalClipboard);
  Reflect.deleteProperty(document, 'execCommand');
  vi.restoreAllMocks();
});

describe('InvitationsPage', () => {
  it('shows the summary, the share link from the list reply and the rows with formatted times and durations', async () => {
    answer(listReply());
    await renderPage();
    expect(callApi).toHaveBeenCalledWith('/web/invite/list', { page: 1, size: 10 });
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
    answer(listReply({ total: 25 }));
    await renderPage();
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(callApi).toHaveBeenCalledWith('/web/invite/list', { page: 2, size: 10 }));
  });

  it('falls back to the stored invite code while the reply has none', async () => {
    answer(listReply({ invite_code: '' }));
    await renderPage();
    expect(screen.getByLabelText<HTMLInputElement>('Share link').value).toContain('invite_code=STORED');
  });

  it('copies the link and says "Copy successful" for 1.5 s', async () => {
    answer(listReply());
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
    answer(listReply());
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
    answer(listReply());
    setClipboard({ writeText: vi.fn().mockRejectedValue(new Error('denied')) });
    Object.defineProperty(document, 'execCommand', { value: vi.fn(() => false), configurable: true });
    await renderPage();
    fireEvent.click(screen.getByRole('button', { name: /Copy link/ }));
    await waitFor(() => expect(showError).toHaveBeenCalledWith('Copy failed', 5));
    expect(showSuccess).not.toHaveBeenCalled();
  });

  it('disables withdraw when nothing is unclaimed', async () => {
    answer(listReply({ unclaimed_minutes: 0, unclaimed_users: 0 }));
    await renderPage();
    expect(screen.getByRole('button', { name: /Withdraw trial time/ }).hasAttribute('disabled')).toBe(true);
  });

  it('withdraws, reports the time added in days and hours and reloads the list', async () => {
    answer((path: string) =>
      path === '/web/invite/withdraw'
        ? { trial_time: 2160, expire_user: 1_800_086_400 }
        : listCalls().length > 1
          ? listReply({
              unclaimed_users: 0,
              unclaimed_minutes: 0,
              list: [{ ...ROWS[0], claimed: true }, ROWS[1]],
            })
          : listReply(),
    );
    await renderPage();
    const button = screen.getByRole('button', { name: /Withdraw trial time/ });
    expect(button.hasAttribute('disabled')).toBe(false);
    fireEvent.click(button);
    await waitFor(() => expect(showSuccess).toHaveBeenCalledWith('1 day 12 hours added to your plan.', 1.5));
    expect(callApi).toHaveBeenCalledWith('/web/invite/withdraw');
    await waitFor(() => expect(listCalls()).toHaveLength(2));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /Withdraw trial time/ }).hasAttribute('disabled')).toBe(true),
    );
    expect(screen.queryByText('Unclaimed')).toBeNull();
  });

  it('says what each invitation earns, from the invitation config', async () => {
    answer(listReply(), { ...CONF, invite_minute: 2880 });
    await renderPage();
    await screen.findByText(
      'For every friend who registers through your link, you get 2 days of access.',
      {},
      { timeout: 5000 },
    );
    expect(callApi).toHaveBeenCalledWith('/web/invite/conf', {}, { silent: true });
  });

  it('keeps the general hint when the config cannot be read', async () => {
    answer(listReply(), new Error('down'));
    await renderPage();
    await waitFor(() => expect(callApi).toHaveBeenCalledWith('/web/invite/conf', {}, { silent: true }));
    expect(screen.getByText(/Friends who register through your link earn you free time/)).toBeTruthy();
    expect(screen.queryByText(/you get/)).toBeNull();
  });

  it('on a phone lists cards, claim status and duration first, without a sideways-scrolling table', async () => {
    setViewportWidth(PHONE_WIDTH);
    answer(listReply());
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
    answer(listReply({ total: 25 }));
    await renderPage();
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(callApi).toHaveBeenCalledWith('/web/invite/list', { page: 2, size: 10 }));
  });

  it('with no invitations yet, says so and offers to copy the invite link', async () => {
    answer(listReply({ total: 0, unclaimed_users: 0, unclaimed_minutes: 0, list: [] }));
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
