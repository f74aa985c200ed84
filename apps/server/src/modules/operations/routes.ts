import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { uuidParams } from '@skyway/shared/schemas/admin/common';
import { pageOf } from '@skyway/shared/schemas/paging';
import { jobsSchema, mailEntrySchema, mailListQuery } from '@skyway/shared/schemas/admin/operations';
import type { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { MailOutboxRow } from '../../db/schema/index.ts';
import type { MailStatus } from '@skyway/shared/mail';
import { latestJobRuns } from './job-runs-repository.ts';
import { ok, replies } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { signedInStaff } from '../staff/signed-in-staff.ts';
import { recordAudit } from '../audit/repository.ts';
import { cancelWaitingMail, findMail, listMail, requeueFailedMail } from './repository.ts';

/** Runs of each job shown. */
const RUNS_SHOWN = 20;

const iso = (date: Date | null) => date?.toISOString() ?? null;

function presentMail(row: MailOutboxRow): z.infer<typeof mailEntrySchema> {
  return {
    id: row.id,
    to: row.to,
    template: row.template,
    language: row.language,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    error: row.error,
    user_id: row.userId,
    created_at: row.createdAt.toISOString(),
    next_attempt_at: row.nextAttemptAt.toISOString(),
    sent_at: iso(row.sentAt),
  };
}

/** The operator's view of the machinery: the mail outbox (with retry) and the scheduled jobs' runs. */
export async function operationsRoutes(
  app: FastifyInstance,
  options: { db: Database; jobEverySeconds: Record<string, number> },
): Promise<void> {
  const { db } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/mail',
    {
      config: { staff: 'mail.view' },
      schema: { tags: ['mail'], querystring: mailListQuery, response: replies(pageOf(mailEntrySchema)) },
    },
    async (request) => {
      const { page, size, ...filter } = request.query;
      const { rows, total } = await listMail(db, filter, { limit: size, offset: (page - 1) * size });
      return ok(request, { total, page, size, items: rows.map(presentMail) });
    },
  );

  /**
   * A staff action on one message: `change` makes it (in the audit's transaction) or answers nothing
   * when the message is not in the state it needs, which is `refused` (or 404 when there is none).
   */
  const mailAction = (options: {
    path: string;
    permission: 'mail.retry' | 'mail.cancel';
    change: typeof requeueFailedMail;
    refused: 'mail_not_retryable' | 'mail_not_cancellable';
    status: { before: MailStatus; after: MailStatus };
  }) =>
    routes.post(
      options.path,
      {
        config: { staff: options.permission },
        schema: { tags: ['mail'], params: uuidParams, response: replies(mailEntrySchema) },
      },
      async (request) => {
        const now = new Date();
        const row = await db.transaction(async (tx) => {
          const changed = await options.change(tx, request.params.id, now);
          if (!changed) {
            throw (await findMail(tx, request.params.id))
              ? new AppError(409, options.refused)
              : new AppError(404, 'not_found');
          }
          await recordAudit(
            tx,
            signedInStaff(request).actor,
            {
              action: options.permission,
              targetType: 'mail',
              targetId: changed.id,
              before: { status: options.status.before },
              after: { status: options.status.after },
            },
            now,
          );
          return changed;
        });
        return ok(request, presentMail(row));
      },
    );

  mailAction({
    path: '/mail/:id/retry',
    permission: 'mail.retry',
    change: requeueFailedMail,
    refused: 'mail_not_retryable',
    status: { before: 'failed', after: 'pending' },
  });
  mailAction({
    path: '/mail/:id/cancel',
    permission: 'mail.cancel',
    change: cancelWaitingMail,
    refused: 'mail_not_cancellable',
    status: { before: 'pending', after: 'cancelled' },
  });

  routes.get(
    '/jobs',
    { config: { staff: 'jobs.view' }, schema: { tags: ['jobs'], response: replies(jobsSchema) } },
    async (request) => {
      const names = Object.keys(options.jobEverySeconds);
      const runs = await latestJobRuns(db, names, RUNS_SHOWN);
      return ok(
        request,
        names.map((name) => ({
          name,
          every_seconds: options.jobEverySeconds[name] ?? 0,
          runs: (runs[name] ?? []).map((run) => ({
            started_at: run.startedAt.toISOString(),
            finished_at: run.finishedAt.toISOString(),
            succeeded: run.succeeded,
            result: run.result,
            error: run.error,
          })),
        })),
      );
    },
  );
}
