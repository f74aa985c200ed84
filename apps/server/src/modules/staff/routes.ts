import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { uuidParams } from '@skyway/shared/schemas/admin/common';
import { pageOf } from '@skyway/shared/schemas/paging';
import { noFields } from '@skyway/shared/schemas/envelope';
import {
  secondFactorRequest,
  setupInfoSchema,
  setupParams,
  recoveryCodesReply,
  newRecoveryCodesRequest,
  setupRequest,
  staffInviteRequest,
  staffListQuery,
  staffPatchRequest,
  staffSchema,
  staffSessionSchema,
  staffSignInReply,
  staffSignInRequest,
} from '@skyway/shared/schemas/admin/staff';
import { ALL_PERMISSIONS, can } from '@skyway/shared/staff';
import { ok, replies } from '../../http/envelope.ts';
import {
  clearStaffCookie,
  csrfTokenOf,
  setStaffCookie,
  signedInStaff,
  staffToken,
} from './signed-in-staff.ts';
import { siteOrigin } from '../../lib/site-origin.ts';
import { presentStaff } from './present.ts';
import { countRecoveryCodesLeft, endStaffSession, findStaffSession, listStaff } from './repository.ts';
import {
  changeStaff,
  finishSetup,
  inviteStaff,
  makeNewRecoveryCodes,
  resendInvite,
  SECOND_FACTOR_MINUTES,
  setupInfo,
  signInWithPassword,
  signInWithSecondFactor,
  type StaffDeps,
} from './service.ts';

const client = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
  now: new Date(),
});

/** Sign-in, set-up and the staff list of the back office (PRODUCT.md section 5). */
export async function staffRoutes(
  app: FastifyInstance,
  options: StaffDeps & { publicUrl: string | undefined },
): Promise<void> {
  const { db } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff'];

  async function recoveryCodesLeft(staffId: string) {
    const { left, old } = await countRecoveryCodesLeft(db, staffId);
    return { recovery_codes_left: left, old_recovery_codes_left: old };
  }

  async function sessionReply(request: FastifyRequest, token: string) {
    const found = await findStaffSession(db, token);
    if (!found) throw new Error('the session just opened is gone');
    return {
      staff: presentStaff(found.staff),
      csrf_token: csrfTokenOf(token),
      permissions: ALL_PERMISSIONS.filter((permission) => can(found.staff.role, permission)),
      expires_at: found.session.expiresAt.toISOString(),
      ...(await recoveryCodesLeft(found.staff.id)),
    };
  }

  routes.post(
    '/session',
    {
      config: { staff: 'public' },
      schema: { tags, body: staffSignInRequest, response: replies(staffSignInReply) },
    },
    async (request, reply) => {
      const now = new Date();
      const token = await signInWithPassword(options, { ...client(request), ...request.body });
      setStaffCookie(reply, token, new Date(now.getTime() + SECOND_FACTOR_MINUTES * 60_000));
      return ok(request, { next: 'second_factor' as const });
    },
  );

  routes.post(
    '/session/second-factor',
    {
      config: { staff: 'second_factor' },
      schema: { tags, body: secondFactorRequest, response: replies(staffSessionSchema) },
    },
    async (request, reply) => {
      const { staff: member, session } = signedInStaff(request);
      const body = request.body;
      const token = await signInWithSecondFactor(options, {
        ...client(request),
        member,
        sessionId: session.id,
        ...('code' in body ? { code: body.code } : { recoveryCode: body.recovery_code }),
      });
      const signedIn = await sessionReply(request, token);
      setStaffCookie(reply, token, new Date(signedIn.expires_at));
      return ok(request, signedIn, 'signed_in');
    },
  );

  routes.get(
    '/session',
    { config: { staff: 'signed_in' }, schema: { tags, response: replies(staffSessionSchema) } },
    async (request) => ok(request, await sessionReply(request, staffToken(request) ?? '')),
  );

  routes.delete(
    '/session',
    { config: { staff: 'signed_in' }, schema: { tags, response: replies(noFields) } },
    async (request, reply) => {
      await endStaffSession(db, signedInStaff(request).session.id, new Date());
      clearStaffCookie(reply);
      return ok(request, {}, 'signed_out');
    },
  );

  routes.post(
    '/session/recovery-codes',
    {
      config: { staff: 'signed_in' },
      schema: { tags, body: newRecoveryCodesRequest, response: replies(recoveryCodesReply) },
    },
    async (request) => {
      const { staff: member, actor } = signedInStaff(request);
      const codes = await makeNewRecoveryCodes(options, actor, { member, ...request.body, now: new Date() });
      return ok(request, { recovery_codes: codes }, 'recovery_codes_replaced');
    },
  );

  routes.get(
    '/setup/:token',
    {
      config: { staff: 'public' },
      schema: { tags, params: setupParams, response: replies(setupInfoSchema) },
    },
    async (request) => ok(request, await setupInfo(options, request.params.token, new Date())),
  );

  routes.post(
    '/setup/:token',
    {
      config: { staff: 'public' },
      schema: { tags, params: setupParams, body: setupRequest, response: replies(recoveryCodesReply) },
    },
    async (request) => {
      const codes = await finishSetup(options, {
        token: request.params.token,
        ...request.body,
        ip: request.ip,
        now: new Date(),
      });
      return ok(request, { recovery_codes: codes }, 'staff_set_up');
    },
  );

  routes.get(
    '/staff',
    {
      config: { staff: 'staff.view' },
      schema: { tags, querystring: staffListQuery, response: replies(pageOf(staffSchema)) },
    },
    async (request) => {
      const { page, size, order } = request.query;
      const { rows, total } = await listStaff(db, page, size, order);
      return ok(request, { total, page, size, items: rows.map(presentStaff) });
    },
  );

  routes.post(
    '/staff',
    {
      config: { staff: 'staff.invite' },
      schema: { tags, body: staffInviteRequest, response: replies(staffSchema) },
    },
    async (request) => {
      const member = await inviteStaff(options, signedInStaff(request).actor, {
        ...request.body,
        origin: siteOrigin(request, options.publicUrl),
        now: new Date(),
      });
      return ok(request, presentStaff(member), 'staff_invited');
    },
  );

  routes.post(
    '/staff/:id/invitation',
    {
      config: { staff: 'staff.invite' },
      schema: { tags, params: uuidParams, body: noFields, response: replies(noFields) },
    },
    async (request) => {
      await resendInvite(options, signedInStaff(request).actor, {
        id: request.params.id,
        origin: siteOrigin(request, options.publicUrl),
        now: new Date(),
      });
      return ok(request, {}, 'staff_invited');
    },
  );

  routes.patch(
    '/staff/:id',
    {
      config: { staff: 'staff.manage' },
      schema: { tags, params: uuidParams, body: staffPatchRequest, response: replies(staffSchema) },
    },
    async (request) => {
      const changed = await changeStaff(options, signedInStaff(request).actor, {
        id: request.params.id,
        ...request.body,
        now: new Date(),
      });
      return ok(request, presentStaff(changed));
    },
  );
}
