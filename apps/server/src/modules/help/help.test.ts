import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { HELP_DEVICE_MARKER, TUTORIAL_FOR_PLATFORM } from '@skyway/shared/help';
import { auditLog, users } from '../../db/schema/index.ts';
import { payingCustomer } from '../../testing/customers.ts';
import { waitUntil } from '../../testing/poll.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import { testDatabaseKind } from '../../testing/test-database.ts';
import {
  newClientAddress,
  signedInUser,
  useTestApp,
  useTwoTestApps,
  webCaller,
} from '../../testing/test-app.ts';

const SEEDED_TUTORIALS = ['clash-verge-rev', 'flclash', 'v2rayn', 'shadowrocket', 'sing-box', 'hiddify'];
const ACCESS_ONLY = 'Access-only secret step';
const WITHOUT_ACCESS = 'Buy a plan first';

let made = 0;
/** An article's fields, the same text in each language unless told. */
function fields(body: string, extra: Record<string, unknown> = {}) {
  made += 1;
  return {
    slug: `article-${made}-${Date.now()}`,
    category: 'troubleshooting',
    position: made,
    published: true,
    title: { en: `Article ${made}`, zh: `文章 ${made}`, tw: `文章 ${made} 繁` },
    body: { en: body, zh: body, tw: body },
    ...extra,
  };
}

describe('help center', () => {
  const t = useTestApp();
  const web = webCaller(() => t.app, newClientAddress);
  let owner: SignedInStaff;

  beforeAll(async () => {
    owner = await signedInStaff(t.app, t.database, 'owner');
  });

  async function write(body: string, extra: Record<string, unknown> = {}) {
    const reply = await owner.call('POST', '/help/articles', fields(body, extra));
    expect(reply.json()).toMatchObject({ code: 200 });
    return reply.json().data as { id: string; slug: string };
  }

  const article = (slug: string, token?: string, l = 'us-en') => web('/web/help/article', { slug, l }, token);
  const htmlOf = async (slug: string, token?: string, l = 'us-en') => {
    const reply = await article(slug, token, l);
    expect(reply.statusCode).toBe(200);
    return reply.json().data.html as string;
  };
  const search = async (q: string, l: string) => {
    const reply = await web('/web/help/search', { q, l });
    expect(reply.statusCode).toBe(200);
    return reply.json().data.list as { slug: string; title: string; excerpt: string }[];
  };

  it('ships the tutorials of the common apps, a start, payments and troubleshooting, listed by category', async () => {
    const reply = await web('/web/help/list', { l: 'zh-cn' });
    const list = reply.json().data.list as { slug: string; title: string; category: string }[];
    const slugs = list.map((item) => item.slug);
    for (const slug of [...SEEDED_TUTORIALS, 'getting-started', 'payments', 'cannot-connect']) {
      expect(slugs).toContain(slug);
    }
    expect(list.find((item) => item.slug === 'shadowrocket')?.title).toBe('Shadowrocket 使用教程');
    // Categories in their order: the start first, troubleshooting last.
    const categories = list.map((item) => item.category);
    expect(categories.indexOf('getting_started')).toBeLessThan(categories.indexOf('clients'));
    expect(categories.lastIndexOf('clients')).toBeLessThan(categories.indexOf('troubleshooting'));
    // Each tutorial My devices links to exists, in the clients' order.
    for (const slug of Object.values(TUTORIAL_FOR_PLATFORM)) if (slug) expect(slugs).toContain(slug);
    expect(slugs.filter((slug) => SEEDED_TUTORIALS.includes(slug))).toEqual(SEEDED_TUTORIALS);

    // Troubleshooting points to the console's node status page; tutorials hold the device picker.
    expect(await htmlOf('cannot-connect', undefined, 'tw-cn')).toContain('href="/nodes"');
    expect(await htmlOf('flclash')).toContain(`<div ${HELP_DEVICE_MARKER}=""></div>`);
  });

  it('renders script, event handlers, javascript: links and data: URLs inert', async () => {
    const { slug } = await write(
      [
        '<script>alert(1)</script>',
        '<img src=x onerror="alert(2)">',
        '[click](javascript:alert(3))',
        '[file](data:text/html;base64,PHNjcmlwdD4=)',
        '![pic](data:image/svg+xml;base64,PHN2Zz4=)',
        '![ok](https://cdn.example.com/step-1.png)',
      ].join('\n\n'),
    );
    const html = await htmlOf(slug);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img[^>]*onerror/i);
    expect(html).not.toMatch(/href="\s*(javascript|data):/i);
    expect(html).not.toMatch(/src="\s*data:/i);
    // What is allowed still works: an image on the web, and the raw HTML shown as text.
    expect(html).toContain('<img src="https://cdn.example.com/step-1.png" alt="ok" />');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('finds 连接 in Chinese articles and English words in English ones, in the reader language', async () => {
    const zh = await search('连接', 'zh-cn');
    expect(zh.map((item) => item.slug)).toContain('cannot-connect');
    expect(zh.find((item) => item.slug === 'cannot-connect')?.excerpt).toContain('连接');
    // The traditional-Chinese text has its own characters: 連線 there.
    expect((await search('連線', 'tw-cn')).map((item) => item.slug)).toContain('cannot-connect');
    expect((await search('Shadowrocket', 'us-en'))[0]?.slug).toBe('shadowrocket');
    expect((await search('subscr', 'us-en')).length).toBeGreaterThan(0);
    expect(await search('连接', 'us-en')).toEqual([]);
    expect(await search('zzqqxx', 'us-en')).toEqual([]);

    // A new article is found at once on the instance that wrote it; hidden, it is not.
    const { id, slug } = await write('', {
      body: { en: 'Plain words', zh: '路由器上的设备如何共享', tw: '路由器' },
    });
    expect((await search('路由器', 'zh-cn')).map((item) => item.slug)).toContain(slug);
    await owner.call('PATCH', `/help/articles/${id}`, { published: false });
    expect((await search('路由器', 'zh-cn')).map((item) => item.slug)).not.toContain(slug);
  });

  it('refuses an empty or overlong search with a localized reason', async () => {
    const reply = await web('/web/help/search', { q: ' ', l: 'zh-cn' });
    expect(reply.statusCode).toBe(400);
    expect(reply.json().data.field).toBe('q');
    expect((await web('/web/help/search', { q: 'x'.repeat(101) })).statusCode).toBe(400);
  });

  it("fills the site's name, and never puts a device's link in an article", async () => {
    const first = await payingCustomer(t.database);
    const second = await payingCustomer(t.database);
    const links = await Promise.all(
      [first.token, second.token].map(async (token) => {
        const devices = (await web('/web/device/list', {}, token)).json().data.devices as { url: string }[];
        return devices.map((device) => device.url);
      }),
    );
    expect(links.flat().length).toBeGreaterThan(0);
    for (const token of [first.token, second.token, undefined]) {
      const reply = await article('getting-started', token);
      const text = reply.body;
      expect(text).toContain('Welcome to Skyway.');
      expect(text).not.toContain('{{');
      for (const url of links.flat()) expect(text).not.toContain(url);
      expect(text).not.toMatch(/\/s\/[A-Za-z0-9_-]{16,}/);
    }
  });

  it('shows access-only sections to customers with access only, decided by the server', async () => {
    const { slug } = await write(
      `Everyone reads this.\n\n:::access\n${ACCESS_ONLY}\n:::\n\n:::no-access\n${WITHOUT_ACCESS}\n:::`,
    );
    const paying = await payingCustomer(t.database);
    const never = await signedInUser(t.database);
    const ended = await signedInUser(t.database);
    await t.database.db
      .update(users)
      .set({ expireAt: new Date(Date.now() - 60_000) })
      .where(eq(users.id, ended.user.id));

    const withAccess = await htmlOf(slug, paying.token);
    expect(withAccess).toContain(ACCESS_ONLY);
    expect(withAccess).not.toContain(WITHOUT_ACCESS);
    for (const token of [never.token, ended.token, undefined]) {
      const reply = await article(slug, token);
      expect(reply.body).not.toContain(ACCESS_ONLY);
      expect(reply.body).not.toContain(':::');
      expect(reply.json().data.html).toContain(WITHOUT_ACCESS);
    }
    // Nor does a search show its text to anyone.
    await write(`Public line.\n\n:::access\nqwertyuniq hidden\n:::`);
    expect(await search('qwertyuniq', 'us-en')).toEqual([]);
  });

  it('answers 404 for an unknown or unpublished article, 400 for a malformed address', async () => {
    const draft = await write('A draft.', { published: false });
    for (const slug of ['no-such-article', draft.slug]) {
      const reply = await article(slug, undefined, 'zh-cn');
      expect(reply.statusCode).toBe(404);
      expect(reply.json()).toMatchObject({ code: 404, msg: '未找到' });
    }
    expect((await article('../etc/passwd')).statusCode).toBe(400);
    // Published, it shows.
    await owner.call('PATCH', `/help/articles/${draft.id}`, { published: true });
    expect((await article(draft.slug)).statusCode).toBe(200);
  });

  it('lets viewers read articles but not change them, and audits every change', async () => {
    const viewer = await signedInStaff(t.app, t.database, 'viewer');
    const { id, slug } = await write('Original text.');
    expect(
      (await viewer.call('GET', '/help/articles')).json().data.items.map((a: { id: string }) => a.id),
    ).toContain(id);
    for (const refused of [
      viewer.call('PATCH', `/help/articles/${id}`, { title: { en: 'x', zh: 'x', tw: 'x' } }),
      viewer.call('DELETE', `/help/articles/${id}`),
      viewer.call('POST', '/help/articles', fields('New.')),
      viewer.call('POST', '/help/preview', { body: { en: 'a', zh: 'a', tw: 'a' } }),
    ]) {
      expect((await refused).statusCode).toBe(403);
    }
    expect(await htmlOf(slug)).toContain('Original text.');

    const changed = await owner.call('PATCH', `/help/articles/${id}`, {
      body: { en: 'Changed text.', zh: '改了', tw: '改了' },
    });
    expect(changed.json().data.body.en).toBe('Changed text.');
    expect(await htmlOf(slug)).toContain('Changed text.');
    // The address is the article's own.
    const taken = await owner.call('PATCH', `/help/articles/${id}`, { slug: 'getting-started' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().data).toMatchObject({ reason: 'help_slug_taken', field: 'slug' });
    expect((await owner.call('DELETE', `/help/articles/${id}`)).statusCode).toBe(200);
    expect((await article(slug)).statusCode).toBe(404);

    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'help_article'), eq(auditLog.targetId, id)))
      .orderBy(auditLog.at);
    expect(rows.map((row) => row.action)).toEqual(['help.create', 'help.change', 'help.delete']);
    expect(rows.every((row) => row.staffId === owner.id)).toBe(true);
    expect(rows[1]?.before).toMatchObject({ body: { en: 'Original text.' } });
    expect(rows[1]?.after).toMatchObject({ body: { en: 'Changed text.' } });
  });

  it("previews each language as a customer with access sees it, the site's name filled", async () => {
    const reply = await owner.call('POST', '/help/preview', {
      body: {
        en: '# {{site_name}}\n\n:::access\nFor you\n:::\n\n<script>x</script>',
        zh: '中文 **预览**',
        tw: '繁體 {{device_link}}',
      },
    });
    const html = reply.json().data.html as Record<string, string>;
    expect(html.en).toContain('<h1>Skyway</h1>');
    expect(html.en).toContain('For you');
    expect(html.en).not.toContain('<script>');
    expect(html.zh).toContain('<strong>预览</strong>');
    expect(html.tw).toContain('繁體 {{device_link}}');
  });
});

describe.runIf(testDatabaseKind === 'postgres')('help search on two instances', () => {
  const two = useTwoTestApps();

  it('gives a slug to one of two members writing it at once, and a 409 to the other', async () => {
    const owner = await signedInStaff(two.first.app, two.first.database, 'owner');
    const other = await signedInStaff(two.second.app, two.second.database, 'admin');
    const same = fields('Same address.');
    const replies = await Promise.all([
      owner.call('POST', '/help/articles', same),
      other.call('POST', '/help/articles', same),
    ]);
    expect(replies.map((reply) => reply.statusCode).sort()).toEqual([200, 409]);
    const refused = replies.find((reply) => reply.statusCode === 409);
    expect(refused?.json().data).toMatchObject({ reason: 'help_slug_taken', field: 'slug' });
  });

  it("finds an article written on one instance through the other's search within seconds", async () => {
    const owner = await signedInStaff(two.first.app, two.first.database, 'owner');
    const secondWeb = webCaller(() => two.second.app, newClientAddress);
    const found = async () =>
      (
        (await secondWeb('/web/help/search', { q: '订阅更新', l: 'zh-cn' })).json().data.list as {
          slug: string;
        }[]
      ).map((item) => item.slug);
    // The second instance builds its index before the article exists.
    const before = await found();
    const written = await owner.call('POST', '/help/articles', {
      ...fields('x'),
      body: { en: 'Refresh', zh: '如何手动订阅更新', tw: '更新' },
    });
    const { slug } = written.json().data as { slug: string };
    expect(before).not.toContain(slug);
    await waitUntil(
      'the article in the other instance search',
      async () => ((await found()).includes(slug) ? true : undefined),
      { timeoutMs: 5_000 },
    );
  });
});
