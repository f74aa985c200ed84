import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { noFields } from '@skyway/shared/schemas/envelope';
import {
  TICKET_IMAGE_UPLOAD_MAX_CHARS,
  ticketCreateRequest,
  ticketIdRequest,
  ticketListRequest,
  ticketListSchema,
  ticketReplyRequest,
  ticketThreadSchema,
} from '@skyway/shared/schemas/tickets';
import { TICKET_IMAGES_MAX } from '@skyway/shared/tickets';
import type { Database } from '../../db/client.ts';
import type { TicketRow } from '../../db/schema/index.ts';
import { ok, replies } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { signedIn } from '../sessions/signed-in.ts';
import { ATTACHMENT_HEADERS, presentCustomerMessage, presentCustomerTicket } from './present.ts';
import { customerTickets, findAttachment, findTicket, threadMessages } from './repository.ts';
import { closeByCustomer, customerReply, markRead, openTicket } from './service.ts';

/** The calls that carry images take their base64 whole: room for every image and the text around it. */
const UPLOAD_BODY_LIMIT = TICKET_IMAGES_MAX * TICKET_IMAGE_UPLOAD_MAX_CHARS + 64 * 1024;

/** The customer's tickets (PRODUCT.md section 10): open, follow, reply, close, and the images. */
export async function ticketRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  const { db } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const account = (request: Parameters<typeof signedIn>[0]) => signedIn(request).user.id;

  async function thread(ticket: TicketRow) {
    const messages = await threadMessages(db, ticket.id, false);
    return { ...presentCustomerTicket(ticket), messages: messages.map(presentCustomerMessage) };
  }

  async function ownTicket(userId: string, id: string): Promise<TicketRow> {
    const ticket = await findTicket(db, id, userId);
    if (!ticket) throw new AppError(404, 'not_found');
    return ticket;
  }

  routes.post(
    '/web/ticket/create',
    {
      bodyLimit: UPLOAD_BODY_LIMIT,
      config: { auth: 'required' },
      schema: { body: ticketCreateRequest, response: replies(ticketThreadSchema) },
    },
    async (request) => {
      const ticket = await openTicket(db, account(request), request.body, new Date());
      return ok(request, await thread(ticket));
    },
  );

  routes.post(
    '/web/ticket/list',
    {
      config: { auth: 'required' },
      schema: { body: ticketListRequest, response: replies(ticketListSchema) },
    },
    async (request) => {
      const { page, size } = request.body;
      const found = await customerTickets(db, account(request), { limit: size, offset: (page - 1) * size });
      return ok(request, {
        total: found.total,
        unread: found.unread,
        list: found.rows.map(presentCustomerTicket),
      });
    },
  );

  routes.post(
    '/web/ticket/detail',
    {
      config: { auth: 'required' },
      schema: { body: ticketIdRequest, response: replies(ticketThreadSchema) },
    },
    async (request) => {
      const ticket = await ownTicket(account(request), request.body.id);
      await markRead(db, ticket);
      return ok(request, await thread({ ...ticket, unreadByCustomer: false }));
    },
  );

  routes.post(
    '/web/ticket/reply',
    {
      bodyLimit: UPLOAD_BODY_LIMIT,
      config: { auth: 'required' },
      schema: { body: ticketReplyRequest, response: replies(ticketThreadSchema) },
    },
    async (request) => {
      const userId = account(request);
      await customerReply(db, userId, request.body, new Date());
      return ok(request, await thread(await ownTicket(userId, request.body.id)));
    },
  );

  routes.post(
    '/web/ticket/close',
    { config: { auth: 'required' }, schema: { body: ticketIdRequest, response: replies(noFields) } },
    async (request) => {
      await closeByCustomer(db, account(request), request.body.id, new Date());
      return ok(request, {});
    },
  );

  // The image's bytes as a download; another account's image is as unknown as one that never was.
  routes.post(
    '/web/ticket/attachment',
    {
      config: { auth: 'required' },
      schema: { body: ticketIdRequest, response: { 200: z.instanceof(Buffer) } },
    },
    async (request, reply) => {
      const found = await findAttachment(db, request.body.id, account(request));
      if (!found) throw new AppError(404, 'not_found');
      return reply.headers(ATTACHMENT_HEADERS(request.body.id, found.mime)).send(found.data);
    },
  );
}
