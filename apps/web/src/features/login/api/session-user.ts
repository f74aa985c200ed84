import type { SessionUser } from '@skyway/shared/user';

/**
 * The token and user of a sign-in or registration reply, checked against their schema. The schema, and
 * zod with it, loads once the reply is in rather than with the page: the sign-in page carries no zod,
 * and the console it opens needs zod anyway.
 */
export async function sessionUserOf(reply: unknown): Promise<SessionUser> {
  const { sessionUserSchema } = await import('@skyway/shared/schemas/user');
  return sessionUserSchema.parse(reply);
}
