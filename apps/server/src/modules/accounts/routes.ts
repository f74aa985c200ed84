import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  changeEmailRequest,
  changePasswordRequest,
  forgetRequest,
  loginRequest,
  registerRequest,
  verifyEmailRequest,
} from '@skyway/shared/schemas/accounts';
import { noFields } from '@skyway/shared/schemas/envelope';
import { sessionUserSchema } from '@skyway/shared/schemas/user';
import { signedIn } from '../sessions/signed-in.ts';
import { ok, replies } from '../../http/envelope.ts';
import { requestLanguage } from '../../http/language.ts';
import { revokeSession } from '../sessions/repository.ts';
import {
  type AccountDeps,
  changeEmail,
  changePassword,
  register,
  requestEmailCode,
  resetPassword,
  signIn,
} from './service.ts';

/** The account calls of PRODUCT.md section 2. */
export async function accountRoutes(app: FastifyInstance, deps: AccountDeps): Promise<void> {
  const { db } = deps;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/web/login/verify_email',
    // Optional sign-in: the change-email scene belongs to a signed-in user, the others to anyone.
    { config: { auth: 'optional' }, schema: { body: verifyEmailRequest, response: replies(noFields) } },
    async (request) => {
      await requestEmailCode(deps, {
        ...request.body,
        ip: request.ip,
        language: requestLanguage(request),
        now: new Date(),
        // The change-email scene is the signed-in user's own: without a live session it stops here.
        signedIn: request.body.scene === 'email' ? signedIn(request).user : request.user,
      });
      return ok(request, {}, 'code_sent');
    },
  );

  routes.post(
    '/web/login/register',
    { config: { auth: 'public' }, schema: { body: registerRequest, response: replies(sessionUserSchema) } },
    async (request) => {
      const { email, password, email_code, invite_code } = request.body;
      const user = await register(deps, {
        email,
        password,
        emailCode: email_code,
        inviteCode: invite_code,
        language: requestLanguage(request),
        now: new Date(),
      });
      return ok(request, user, 'registered');
    },
  );

  routes.post(
    '/web/login/login',
    { config: { auth: 'public' }, schema: { body: loginRequest, response: replies(sessionUserSchema) } },
    async (request) => {
      const user = await signIn(deps, {
        ...request.body,
        ip: request.ip,
        language: requestLanguage(request),
        now: new Date(),
      });
      return ok(request, user, 'signed_in');
    },
  );

  routes.post(
    '/web/login/forget',
    { config: { auth: 'public' }, schema: { body: forgetRequest, response: replies(noFields) } },
    async (request) => {
      const { email, email_code, password } = request.body;
      await resetPassword(deps, { email, emailCode: email_code, password, now: new Date() });
      return ok(request, {}, 'password_reset');
    },
  );

  routes.post(
    '/web/login/email',
    {
      config: { auth: 'required' },
      schema: { body: changeEmailRequest, response: replies(sessionUserSchema) },
    },
    async (request) => {
      const user = await changeEmail(deps, {
        user: signedIn(request).user,
        email: request.body.email,
        emailCode: request.body.email_code,
        now: new Date(),
      });
      return ok(request, user, 'email_changed');
    },
  );

  routes.post(
    '/web/login/pass',
    { config: { auth: 'required' }, schema: { body: changePasswordRequest, response: replies(noFields) } },
    async (request) => {
      const { user, session } = signedIn(request);
      await changePassword(deps, {
        user,
        sessionId: session.id,
        oldPassword: request.body.old_pwd,
        newPassword: request.body.new_pwd,
        now: new Date(),
      });
      return ok(request, {}, 'password_changed');
    },
  );

  routes.post(
    '/web/login/out',
    { config: { auth: 'required' }, schema: { body: noFields, response: replies(noFields) } },
    async (request) => {
      await revokeSession(db, signedIn(request).session.id);
      return ok(request, {}, 'signed_out');
    },
  );
}
