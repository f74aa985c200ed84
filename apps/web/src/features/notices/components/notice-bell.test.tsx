import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatDateTime } from '@skyway/shared/dates';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, never, noReply, ok, refused, requestsTo, sentTo } from '../../../test/network.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { signIn } from '../../../test/user-info.ts';
import { DESKTOP_WIDTH, PHONE_WIDTH, setViewportWidth } from '../../../test/viewport.ts';
import { NOTICES_REFETCH_MS, type Notice, type NoticeList } from '../api/notices.ts';

vi.mock('../../../lib/toast.ts', () => import('../../../test/fake-toast.ts'));
vi.mock('../../../lib/page.ts', () => import('../../../test/fake-page.ts'));

const { showError } = await import('../../../test/fake-toast.ts');
const { reloadPage } = await import('../../../test/fake-page.ts');
const { getSession } = await import('../../../lib/session.ts');
const { STORAGE_KEYS } = await import('../../../lib/storage-keys.ts');
const { NoticeBell } = await import('./notice-bell.tsx');

const NEWEST = '00000000-0000-4000-8000-000000000003';
const MIDDLE = '00000000-0000-4000-8000-000000000002';
const OLDEST = '00000000-0000-4000-8000-000000000001';

function notice(id: string, fields: Partial<Notice> = {}): Notice {
  return {
    id,
    title: `Notice ${id.slice(-1)}`,
    body_html: `<p>Body of ${id.slice(-1)}</p>`,
    publish_time: 1_800_000_000 + Number(id.slice(-1)) * 3600,
    read: false,
    ...fields,
  };
}

const listOf = (notices: Notice[]): NoticeList => ({
  unread: notices.filter((item) => !item.read).length,
  list: notices,
});

/**
 * The server's side: the list as `notices` says, and `/web/notice/read` marking them read for good
 * (as it does per account), so that a later list has them read.
 */
function serve(notices: Notice[]) {
  let current = notices;
  answer('/web/notice/list', () => ok(listOf(current)));
  answer('/web/notice/read', ({ id }) => {
    if (!current.some((item) => item.id === id)) return refused(404, 'Not found');
    current = current.map((item) => (item.id === id ? { ...item, read: true } : item));
    return ok({});
  });
  return {
    publish(next: Notice[]) {
      current = next;
    },
  };
}

async function renderBell() {
  const rendered = await renderWithProviders(<NoticeBell />);
  return rendered;
}

const bell = () => screen.getByRole('button', { name: /^Notices/ });
const badge = () => document.querySelector('.ant-badge-count');

async function openDrawer() {
  fireEvent.click(bell());
  return screen.findByRole('dialog', { name: 'Notices' });
}

const titles = (drawer: HTMLElement) =>
  within(drawer)
    .queryAllByRole('heading', { level: 2 })
    .map((heading) => heading.textContent);

beforeEach(() => {
  signIn();
});

afterEach(() => {
  vi.useRealTimers();
  setViewportWidth(DESKTOP_WIDTH);
});

describe('NoticeBell', () => {
  it('shows the unread count on the bell, in its name too', async () => {
    serve([notice(NEWEST), notice(MIDDLE), notice(OLDEST, { read: true })]);
    await renderBell();
    await screen.findByRole('button', { name: 'Notices, 2 unread' });
    expect(badge()?.textContent).toBe('2');
    // The list is in the page's language: it is cached under it.
    const [request] = requestsTo('/web/notice/list');
    expect(await request?.body).toEqual({ t: expect.any(Number), l: 'us-en' });
    expect(request?.headers.get('authorization')).toBe('T');
  });

  it('has no count when everything is read', async () => {
    serve([notice(NEWEST, { read: true })]);
    const { queryClient } = await renderBell();
    await waitFor(() => expect(requestsTo('/web/notice/list')).toHaveLength(1));
    await waitFor(() => expect(queryClient.getQueryData(['notices', 'en'])).toBeDefined());
    expect(bell().getAttribute('aria-label')).toBe('Notices');
    expect(badge()).toBeNull();
  });

  it('lists the notices newest first with their time and body, unread ones marked', async () => {
    serve([
      notice(NEWEST, {
        body_html: '<p>Now <strong>faster</strong>, see <a href="https://example.com/x">this</a></p>',
      }),
      notice(MIDDLE),
      notice(OLDEST, { read: true }),
    ]);
    await renderBell();
    await screen.findByRole('button', { name: 'Notices, 2 unread' });
    const drawer = await openDrawer();

    expect(titles(drawer)).toEqual(['New:Notice 3', 'New:Notice 2', 'Notice 1']);
    const items = within(drawer).getAllByTestId('notice');
    expect(items.map((item) => item.classList.contains('notice-item--new'))).toEqual([true, true, false]);
    expect(items[0]?.textContent).toContain(formatDateTime(1_800_000_000 + 3 * 3600));
    expect(items[0]?.querySelector('time')?.getAttribute('dateTime')).toBe(
      new Date((1_800_000_000 + 3 * 3600) * 1000).toISOString(),
    );
    const body = items[0]?.querySelector('.notice-body') as HTMLElement;
    expect(within(body).getByText('faster').tagName).toBe('STRONG');
    expect(within(body).getByRole('link', { name: 'this' }).getAttribute('href')).toBe(
      'https://example.com/x',
    );
  });

  it('marks the unread ones read as the drawer opens: the count clears, and stays cleared', async () => {
    serve([notice(NEWEST), notice(MIDDLE), notice(OLDEST, { read: true })]);
    const { queryClient } = await renderBell();
    await screen.findByRole('button', { name: 'Notices, 2 unread' });
    expect(requestsTo('/web/notice/read')).toHaveLength(0);

    const drawer = await openDrawer();
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notices'));
    expect(badge()).toBeNull();
    const marked = await sentTo('/web/notice/read');
    expect(marked).toHaveLength(2);
    expect(marked).toEqual(expect.arrayContaining([{ id: NEWEST }, { id: MIDDLE }]));
    // Still marked while the drawer is open: the customer has not read them yet.
    expect(
      within(drawer)
        .getAllByTestId('notice')
        .map((item) => item.className),
    ).toEqual(['notice-item notice-item--new', 'notice-item notice-item--new', 'notice-item']);

    // A new list from the server (a reload) has them read.
    await act(() => queryClient.refetchQueries({ queryKey: ['notices'] }));
    expect(bell().getAttribute('aria-label')).toBe('Notices');

    fireEvent.click(within(drawer).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const again = await openDrawer();
    expect(titles(again)).toEqual(['Notice 3', 'Notice 2', 'Notice 1']);
    expect(requestsTo('/web/notice/read')).toHaveLength(2);
  });

  it('marks read a notice that arrives while the drawer is open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = serve([notice(MIDDLE, { read: true })]);
    await renderBell();
    const drawer = await openDrawer();
    await within(drawer).findByText('Notice 2');
    expect(requestsTo('/web/notice/read')).toHaveLength(0);

    server.publish([notice(NEWEST), notice(MIDDLE, { read: true })]);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(NOTICES_REFETCH_MS);
    });
    await within(drawer).findByText('Notice 3');
    await waitFor(() => expect(requestsTo('/web/notice/read')).toHaveLength(1));
    expect(await sentTo('/web/notice/read')).toEqual([{ id: NEWEST }]);
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notices'));
    expect(within(drawer).getAllByTestId('notice')[0]?.classList.contains('notice-item--new')).toBe(true);
  });

  it('asks again every minute: an expired notice goes and a new one comes without a reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = serve([notice(MIDDLE)]);
    await renderBell();
    await screen.findByRole('button', { name: 'Notices, 1 unread' });

    server.publish([notice(NEWEST), notice(OLDEST)]);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(NOTICES_REFETCH_MS / 2);
    });
    expect(requestsTo('/web/notice/list')).toHaveLength(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(NOTICES_REFETCH_MS / 2);
    });
    await screen.findByRole('button', { name: 'Notices, 2 unread' });
    const drawer = await openDrawer();
    expect(titles(drawer)).toEqual(['New:Notice 3', 'New:Notice 1']);
  });

  it('asks again when the window comes back into focus', async () => {
    serve([]);
    await renderBell();
    await waitFor(() => expect(requestsTo('/web/notice/list')).toHaveLength(1));
    await act(async () => {
      window.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() => expect(requestsTo('/web/notice/list')).toHaveLength(2));
  });

  it('says so when there are no notices', async () => {
    serve([]);
    await renderBell();
    const drawer = await openDrawer();
    await within(drawer).findByText('No notices right now');
    expect(within(drawer).queryByRole('list')).toBeNull();
    expect(requestsTo('/web/notice/read')).toHaveLength(0);
  });

  it('reads the list again, without a toast, when a notice cannot be marked read (it expired meanwhile)', async () => {
    const server = serve([notice(NEWEST)]);
    await renderBell();
    await screen.findByRole('button', { name: 'Notices, 1 unread' });
    server.publish([]);
    const drawer = await openDrawer();
    await within(drawer).findByText('No notices right now');
    expect(requestsTo('/web/notice/read')).toHaveLength(1);
    expect(requestsTo('/web/notice/list')).toHaveLength(2);
    expect(bell().getAttribute('aria-label')).toBe('Notices');
    expect(showError).not.toHaveBeenCalled();
  });

  it('keeps quiet when the list cannot be read, and says so in the drawer', async () => {
    answer('/web/notice/list', noReply);
    await renderBell();
    await waitFor(() => expect(requestsTo('/web/notice/list')).toHaveLength(1));
    expect(bell().getAttribute('aria-label')).toBe('Notices');
    const drawer = await openDrawer();
    await within(drawer).findByText(/could not be loaded/);
    expect(showError).not.toHaveBeenCalled();
  });

  it('tells an ended session as every call does: signed out, its message kept for after the reload', async () => {
    answer('/web/notice/list', refused(401, 'Your session has expired'));
    await renderBell();
    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
    expect(getSession()).toEqual({ token: null, user: null });
    expect(sessionStorage.getItem(STORAGE_KEYS.flash)).toBe('Your session has expired');
    expect(showError).not.toHaveBeenCalled();
  });

  it('shows nothing but the bell while the list loads', async () => {
    answer('/web/notice/list', never);
    await renderBell();
    expect(bell().getAttribute('aria-label')).toBe('Notices');
    expect(badge()).toBeNull();
  });

  it('takes the whole width of a phone', async () => {
    setViewportWidth(PHONE_WIDTH);
    serve([notice(NEWEST)]);
    await renderBell();
    await screen.findByRole('button', { name: 'Notices, 1 unread' });
    const drawer = await openDrawer();
    const panel = drawer.closest('.ant-drawer-content-wrapper') as HTMLElement;
    expect(panel.style.width).toBe('100%');
  });
});
