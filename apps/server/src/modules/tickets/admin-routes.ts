import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { uuidParams } from '@skyway/shared/schemas/admin/common';
import {
  savedReplyListSchema,
  savedReplyRequest,
  savedReplySchema,
  staffTicketReplyRequest,
  staffTicketThreadSchema,
  ticketAssignRequest,
  ticketQueueQuery,
  ticketQueueSchema,
  ticketTimesQuery,
  ticketTimesSchema,
} from '@skyway/shared/schemas/admin/tickets';
import { noFields } from '@skyway/shared/schemas/envelope';
import type { SavedReplyRow } from '../../db/schema/index.ts';
import { ok, replies } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { signedInStaff } from '../staff/signed-in-staff.ts';
import type { TicketNotifyDeps } from './notify.ts';
import { ATTACHMENT_HEADERS, presentStaffMessage, presentStaffTicket } from './present.ts';
import {
  findAttachment,
  listSavedReplies,
  staffTicket,
  threadMessages,
  ticketQueue,
  ticketTimes,
} from './repository.ts';
import {
  assignTicket,
  changeSavedReply,
  closeByStaff,
  createSavedReply,
  removeSavedReply,
  staffReply,
} from './service.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const presentSavedReply = (row: SavedReplyRow) => ({
  id: row.id,
  title: row.title,
  body: row.body,
  updated_at: row.updatedAt.toISOString(),
});

/**
 * The back office's tickets (PRODUCT.md section 10): the queue, a thread with its internal notes,
 * replies, notes, assignment and closing, the saved answers, and the support figures. The
 * customer's access, devices, orders and payments beside a thread come from `/users/:id`.
 */
export async function ticketAdminRoutes(app: FastifyInstance, options: TicketNotifyDeps): Promise<void> {
  const { db } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['tickets'];
  const view = { staff: 'tickets.view' } as const;
  const reply = { staff: 'tickets.reply' } as const;
  const actor = (request: Parameters<typeof signedInStaff>[0]) => signedInStaff(request).actor;

  async function thread(id: string) {
    const found = await staffTicket(db, id);
    if (!found) throw new AppError(404, 'not_found');
    const messages = await threadMessages(db, id, true);
    return { ...presentStaffTicket(found), messages: messages.map(presentStaffMessage) };
  }

  routes.get(
    '/tickets',
    { config: view, schema: { tags, querystring: ticketQueueQuery, response: replies(ticketQueueSchema) } },
    async (request) => {
      const { page, size, assignee, waiting_hours: waitingHours, ...filter } = request.query;
      const found = await ticketQueue(
        db,
        {
          ...filter,
          assignee: assignee === 'me' ? actor(request).staffId : assignee,
          waitingBefore: waitingHours ? new Date(Date.now() - waitingHours * HOUR_MS) : undefined,
        },
        { limit: size, offset: (page - 1) * size },
      );
      return ok(request, {
        total: found.total,
        total_capped: found.capped,
        page,
        size,
        items: found.rows.map(presentStaffTicket),
      });
    },
  );

  routes.get(
    '/tickets/times',
    { config: view, schema: { tags, querystring: ticketTimesQuery, response: replies(ticketTimesSchema) } },
    async (request) => {
      const { days } = request.query;
      const times = await ticketTimes(db, new Date(Date.now() - days * DAY_MS));
      return ok(request, {
        days,
        opened: times.opened,
        waiting: times.waiting,
        first_response_median_seconds: times.firstResponse,
        resolution_median_seconds: times.resolution,
      });
    },
  );

  routes.get(
    '/tickets/:id',
    { config: view, schema: { tags, params: uuidParams, response: replies(staffTicketThreadSchema) } },
    async (request) => ok(request, await thread(request.params.id)),
  );

  routes.post(
    '/tickets/:id/messages',
    {
      config: reply,
      schema: {
        tags,
        params: uuidParams,
        body: staffTicketReplyRequest,
        response: replies(staffTicketThreadSchema),
      },
    },
    async (request) => {
      await staffReply(options, actor(request), request.params.id, request.body, new Date());
      return ok(request, await thread(request.params.id));
    },
  );

  routes.post(
    '/tickets/:id/assign',
    {
      config: reply,
      schema: {
        tags,
        params: uuidParams,
        body: ticketAssignRequest,
        response: replies(staffTicketThreadSchema),
      },
    },
    async (request) => {
      await assignTicket(db, actor(request), request.params.id, request.body.staff_id, new Date());
      return ok(request, await thread(request.params.id));
    },
  );

  routes.post(
    '/tickets/:id/close',
    {
      config: reply,
      schema: { tags, params: uuidParams, body: noFields, response: replies(staffTicketThreadSchema) },
    },
    async (request) => {
      await closeByStaff(db, actor(request), request.params.id, new Date());
      return ok(request, await thread(request.params.id));
    },
  );

  routes.get(
    '/ticket-attachments/:id',
    { config: view, schema: { tags, params: uuidParams, response: { 200: z.instanceof(Buffer) } } },
    async (request, response) => {
      const found = await findAttachment(db, request.params.id);
      if (!found) throw new AppError(404, 'not_found');
      return response.headers(ATTACHMENT_HEADERS(request.params.id, found.mime)).send(found.data);
    },
  );

  routes.get(
    '/saved-replies',
    { config: view, schema: { tags, response: replies(savedReplyListSchema) } },
    async (request) => ok(request, { items: (await listSavedReplies(db)).map(presentSavedReply) }),
  );

  routes.post(
    '/saved-replies',
    { config: reply, schema: { tags, body: savedReplyRequest, response: replies(savedReplySchema) } },
    async (request) =>
      ok(request, presentSavedReply(await createSavedReply(db, actor(request), request.body, new Date()))),
  );

  routes.patch(
    '/saved-replies/:id',
    {
      config: reply,
      schema: { tags, params: uuidParams, body: savedReplyRequest, response: replies(savedReplySchema) },
    },
    async (request) =>
      ok(
        request,
        presentSavedReply(
          await changeSavedReply(db, actor(request), request.params.id, request.body, new Date()),
        ),
      ),
  );

  routes.delete(
    '/saved-replies/:id',
    { config: reply, schema: { tags, params: uuidParams, response: replies(noFields) } },
    async (request) => {
      await removeSavedReply(db, actor(request), request.params.id, new Date());
      return ok(request, {});
    },
  );
}
