import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { uuidParams } from '@skyway/shared/schemas/admin/common';
import {
  gatewayCreateRequest,
  gatewayListSchema,
  gatewaySchema,
  gatewayTestSchema,
  gatewayUpdateRequest,
} from '@skyway/shared/schemas/admin/gateways';
import { noFields } from '@skyway/shared/schemas/envelope';
import type { Database } from '../../db/client.ts';
import { ok, replies } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { signedInStaff } from '../staff/signed-in-staff.ts';
import { findGateway, listGateways } from './repository.ts';
import { changeGateway, createGateway, presentGateway, testGatewayKeys } from './service.ts';

/**
 * The back office's payment gateways (PRODUCT.md section 8), for owners and finance: listed, added,
 * changed (turned on or off among the rest), their keys tried. Keys go in and never come out: no
 * reply, log line or audit row carries them.
 */
export async function gatewayAdminRoutes(
  app: FastifyInstance,
  options: { db: Database; secretsKey: Buffer | undefined },
): Promise<void> {
  const { db, secretsKey } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['gateways'];
  const edit = { staff: 'gateways.edit' } as const;
  const actor = (request: Parameters<typeof signedInStaff>[0]) => signedInStaff(request).actor;

  routes.get(
    '/gateways',
    { config: edit, schema: { tags, response: replies(gatewayListSchema) } },
    async (request) => ok(request, { items: (await listGateways(db)).map(presentGateway) }),
  );

  routes.post(
    '/gateways',
    { config: edit, schema: { tags, body: gatewayCreateRequest, response: replies(gatewaySchema) } },
    async (request) =>
      ok(
        request,
        presentGateway(await createGateway(db, secretsKey, actor(request), request.body, new Date())),
      ),
  );

  routes.patch(
    '/gateways/:id',
    {
      config: edit,
      schema: { tags, params: uuidParams, body: gatewayUpdateRequest, response: replies(gatewaySchema) },
    },
    async (request) => {
      const row = await changeGateway(
        db,
        secretsKey,
        actor(request),
        request.params.id,
        request.body,
        new Date(),
      );
      return ok(request, presentGateway(row));
    },
  );

  routes.post(
    '/gateways/:id/test',
    {
      config: edit,
      schema: { tags, params: uuidParams, body: noFields, response: replies(gatewayTestSchema) },
    },
    async (request) => {
      const row = await findGateway(db, request.params.id);
      if (!row) throw new AppError(404, 'not_found');
      return ok(request, await testGatewayKeys(row, secretsKey));
    },
  );
}
