import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import { newClientAddress, signedInUser, useTestApp, webCaller } from '../../testing/test-app.ts';

const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

describe('notices', () => {
  const t = useTestApp();
  let owner: SignedInStaff;
  const web = webCaller(() => t.app, newClientAddress);

  beforeAll(async () => {
    owner = await signedInStaff(t.app, t.database, 'owner');
  });

  let made = 0;
  /** A notice written in the back office; published an hour ago unless told otherwise. */
  async function notice(fields: Record<string, unknown> = {}) {
    made += 1;
    const reply = await owner.call('POST', '/announcements', {
      title: { en: `Notice ${made}`, zh: `公告 ${made}`, tw: `公告 ${made} 繁` },
      body: { en: `**Hello** ${made}`, zh: `**你好** ${made}`, tw: `**你好** ${made} 繁` },
      publish_at: at(-HOUR),
      ...fields,
    });
    expect(reply.json()).toMatchObject({ code: 200 });
    return reply.json().data as { id: string; state: string; title: { en: string } };
  }

  /** A customer whose access ends `accessMs` from now (negative: ended), with a session. */
  async function customer(accessMs: number | null) {
    const { user, token } = await signedInUser(t.database);
    const expireAt = accessMs === null ? null : new Date(Date.now() + accessMs);
    await t.database.db.update(users).set({ expireAt }).where(eq(users.id, user.id));
    return token;
  }

  async function titlesSeen(token: string, l = 'us-en') {
    const reply = await web('/web/notice/list', { l }, token);
    expect(reply.statusCode).toBe(200);
    return (reply.json().data.list as { title: string }[]).map((item) => item.title);
  }

  async function downloadPageTitles(l = 'us-en') {
    const reply = await web('/web/notice/public', { l });
    expect(reply.statusCode).toBe(200);
    return (reply.json().data.list as { title: string }[]).map((item) => item.title);
  }

  it('shows a notice to customers only while it is published: not as a draft, scheduled or expired', async () => {
    const token = await customer(HOUR);
    const draft = await notice({ publish_at: null });
    const scheduled = await notice({ publish_at: at(HOUR) });
    const published = await notice();
    const expired = await notice({ publish_at: at(-2 * HOUR), expire_at: at(-HOUR) });
    expect([draft.state, scheduled.state, published.state, expired.state]).toEqual([
      'draft',
      'scheduled',
      'published',
      'expired',
    ]);
    const seen = await titlesSeen(token);
    expect(seen).toContain(published.title.en);
    for (const hidden of [draft, scheduled, expired]) expect(seen).not.toContain(hidden.title.en);

    // Published now from the back office, the draft shows; taken down, the published one goes.
    expect((await owner.call('POST', `/announcements/${draft.id}/publish`)).json().data.state).toBe(
      'published',
    );
    expect((await owner.call('POST', `/announcements/${published.id}/take-down`)).json().data.state).toBe(
      'expired',
    );
    const after = await titlesSeen(token);
    expect(after).toContain(draft.title.en);
    expect(after).not.toContain(published.title.en);

    // A scheduled notice shows from its time; back to draft, it hides again.
    await owner.call('PATCH', `/announcements/${scheduled.id}`, { publish_at: at(-1000) });
    expect(await titlesSeen(token)).toContain(scheduled.title.en);
    const back = await owner.call('PATCH', `/announcements/${scheduled.id}`, { publish_at: null });
    expect(back.json().data.state).toBe('draft');
    expect(await titlesSeen(token)).not.toContain(scheduled.title.en);

    // An expiry a moment away: shown, then gone at it.
    const brief = await notice({ expire_at: at(600) });
    expect(await titlesSeen(token)).toContain(brief.title.en);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await titlesSeen(token)).not.toContain(brief.title.en);
  });

  it('shows each audience its notices: with access, without, and everyone', async () => {
    const everyone = await notice({ audience: 'all' });
    const paying = await notice({ audience: 'with_access' });
    const lapsed = await notice({ audience: 'without_access' });
    const withAccess = await titlesSeen(await customer(HOUR));
    const ended = await titlesSeen(await customer(-HOUR));
    const never = await titlesSeen(await customer(null));
    expect(withAccess).toEqual(expect.arrayContaining([everyone.title.en, paying.title.en]));
    expect(withAccess).not.toContain(lapsed.title.en);
    for (const seen of [ended, never]) {
      expect(seen).toEqual(expect.arrayContaining([everyone.title.en, lapsed.title.en]));
      expect(seen).not.toContain(paying.title.en);
    }
  });

  it('speaks the caller’s language, newest first, with the body rendered', async () => {
    const token = await customer(HOUR);
    const older = await notice({ publish_at: at(-3 * HOUR) });
    const newer = await notice({ publish_at: at(-1000) });
    const zh = await web('/web/notice/list', { l: 'zh-cn' }, token);
    const list = zh.json().data.list as {
      id: string;
      title: string;
      body_html: string;
      publish_time: number;
    }[];
    const ours = list.filter((item) => item.id === older.id || item.id === newer.id);
    expect(ours.map((item) => item.id)).toEqual([newer.id, older.id]);
    expect(ours[0]?.title).toMatch(/^公告 \d+$/);
    expect(ours[0]?.body_html).toMatch(/<strong>你好<\/strong>/);
    expect(ours[0]?.publish_time).toBeGreaterThan(Date.now() / 1000 - 5);
    const tw = (await web('/web/notice/list', { l: 'tw-cn' }, token)).json().data.list as { title: string }[];
    expect(tw.some((item) => item.title.endsWith('繁'))).toBe(true);
  });

  it('keeps each account’s read state: unread until read, once, and only its own', async () => {
    const alice = await customer(HOUR);
    const bob = await customer(HOUR);
    const fresh = await notice();
    const unread = async (token: string) =>
      (await web('/web/notice/list', {}, token)).json().data.unread as number;
    const aliceBefore = await unread(alice);
    const bobBefore = await unread(bob);
    expect(aliceBefore).toBeGreaterThan(0);
    for (let i = 0; i < 2; i += 1) {
      expect((await web('/web/notice/read', { id: fresh.id }, alice)).json()).toMatchObject({ code: 200 });
    }
    expect(await unread(alice)).toBe(aliceBefore - 1);
    expect(await unread(bob)).toBe(bobBefore);
    const item = (await web('/web/notice/list', {}, alice))
      .json()
      .data.list.find((entry: { id: string }) => entry.id === fresh.id);
    expect(item.read).toBe(true);
  });

  it('refuses to mark a notice the account cannot see, and calls without a session', async () => {
    const token = await customer(HOUR);
    const lapsedOnly = await notice({ audience: 'without_access' });
    const draft = await notice({ publish_at: null });
    for (const id of [lapsedOnly.id, draft.id, crypto.randomUUID()]) {
      const reply = await web('/web/notice/read', { id, l: 'zh-cn' }, token);
      expect(reply.statusCode).toBe(404);
      expect(reply.json().msg).toMatch(/[\u4e00-\u9fff]/);
    }
    expect((await web('/web/notice/read', { id: 'nope' }, token)).json()).toMatchObject({
      code: 400,
      data: { field: 'id' },
    });
    expect((await web('/web/notice/list', {})).statusCode).toBe(401);
    expect((await web('/web/notice/read', { id: draft.id })).statusCode).toBe(401);
  });

  it('shows the download page’s notices to everyone, in their language, from publish time to expiry', async () => {
    const marked = await notice({ on_download_page: true, audience: 'with_access' });
    const unmarked = await notice();
    const titles = await downloadPageTitles();
    expect(titles).toContain(marked.title.en);
    expect(titles).not.toContain(unmarked.title.en);
    expect(await downloadPageTitles('zh-cn')).toContain(marked.title.en.replace('Notice', '公告'));
    // Changes show at once on the instance that made them, and times are exact despite its copy.
    const later = await notice({ on_download_page: true, publish_at: at(500), expire_at: at(1200) });
    expect(await downloadPageTitles()).not.toContain(later.title.en);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await downloadPageTitles()).toContain(later.title.en);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await downloadPageTitles()).not.toContain(later.title.en);
    await owner.call('POST', `/announcements/${marked.id}/take-down`);
    expect(await downloadPageTitles()).not.toContain(marked.title.en);
  });

  it('renders Markdown with script or event handlers inert, in the preview and for customers', async () => {
    const hostile = '<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n[x](javascript:alert(3))';
    const preview = await owner.call('POST', '/announcements/preview', {
      body: { en: hostile, zh: '**粗体**', tw: '# 標題' },
    });
    const html = preview.json().data.body_html as Record<string, string>;
    expect(html.en).not.toMatch(/<script|<img|href=/i);
    expect(html.en).toContain('&lt;script&gt;');
    expect(html.zh).toContain('<strong>粗体</strong>');
    expect(html.tw).toContain('<h1>標題</h1>');

    const written = await notice({ body: { en: hostile, zh: hostile, tw: hostile }, on_download_page: true });
    const shown = (await web('/web/notice/public', {}))
      .json()
      .data.list.find((item: { id: string }) => item.id === written.id);
    expect(shown.body_html).not.toMatch(/<script|<img|href=/i);
  });

  it('refuses what is not a notice, and changes nothing', async () => {
    const count = async () =>
      (await owner.call('GET', '/announcements?size=100')).json().data.total as number;
    const before = await count();
    const missingTw = await owner.call('POST', '/announcements', {
      title: { en: 'a', zh: 'b' },
      body: { en: 'a', zh: 'b', tw: 'c' },
    });
    expect(missingTw.statusCode).toBe(400);
    const backwards = await owner.call('POST', '/announcements', {
      title: { en: 'a', zh: 'b', tw: 'c' },
      body: { en: 'a', zh: 'b', tw: 'c' },
      publish_at: at(HOUR),
      expire_at: at(1000),
    });
    expect(backwards.json()).toMatchObject({ code: 400, data: { field: 'expire_at' } });
    expect(await count()).toBe(before);

    // An expiry moved before the publish time, publishing an expired notice, taking down a draft.
    const draft = await notice({ publish_at: null });
    const moved = await owner.call('PATCH', `/announcements/${draft.id}`, {
      publish_at: at(HOUR),
    });
    expect(moved.json().data.state).toBe('scheduled');
    expect(
      (await owner.call('PATCH', `/announcements/${draft.id}`, { expire_at: at(1000) })).json(),
    ).toMatchObject({ code: 400, data: { field: 'expire_at' } });
    const expired = await notice({ publish_at: at(-2 * HOUR), expire_at: at(-HOUR) });
    expect((await owner.call('POST', `/announcements/${expired.id}/publish`)).json()).toMatchObject({
      code: 409,
      data: { reason: 'notice_expired' },
    });
    expect((await owner.call('POST', `/announcements/${draft.id}/take-down`)).json()).toMatchObject({
      code: 409,
      data: { reason: 'notice_not_published' },
    });
    expect((await owner.call('DELETE', `/announcements/${crypto.randomUUID()}`)).statusCode).toBe(404);
  });

  it('lets a deleted notice go from customers’ lists with its read marks', async () => {
    const token = await customer(HOUR);
    const gone = await notice();
    await web('/web/notice/read', { id: gone.id }, token);
    expect((await owner.call('DELETE', `/announcements/${gone.id}`)).json()).toMatchObject({ code: 200 });
    expect(await titlesSeen(token)).not.toContain(gone.title.en);
  });
});
