import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  deviceBindSchema,
  deviceKeepRequest,
  deviceListSchema,
  deviceRegenerateRequest,
  deviceRenameRequest,
  deviceSchema,
  HWID_HEADER,
  HWID_MAX,
} from '@skyway/shared/schemas/devices';
import { noFields } from '@skyway/shared/schemas/envelope';
import { signedIn } from '../sessions/signed-in.ts';
import { ok, replies } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { siteOrigin } from '../../lib/site-origin.ts';
import {
  bindDevice,
  type DevicesDeps,
  keepDevices,
  listDevices,
  regenerateDevice,
  renameDevice,
} from './service.ts';

/** The console's "My devices": each paid connection a slot with its own credential and link. */
export async function deviceRoutes(
  app: FastifyInstance,
  options: DevicesDeps & { publicUrl: string | undefined },
): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const auth = { auth: 'required' } as const;

  routes.post(
    '/web/device/list',
    { config: auth, schema: { body: noFields, response: replies(deviceListSchema) } },
    async (request) =>
      ok(
        request,
        await listDevices(
          options,
          signedIn(request).user.id,
          siteOrigin(request, options.publicUrl),
          new Date(),
        ),
      ),
  );

  routes.post(
    '/web/device/rename',
    { config: auth, schema: { body: deviceRenameRequest, response: replies(deviceSchema) } },
    async (request) =>
      ok(
        request,
        await renameDevice(options, signedIn(request).user.id, {
          ...request.body,
          origin: siteOrigin(request, options.publicUrl),
        }),
      ),
  );

  routes.post(
    '/web/device/regenerate',
    { config: auth, schema: { body: deviceRegenerateRequest, response: replies(deviceSchema) } },
    async (request) =>
      ok(
        request,
        await regenerateDevice(options, signedIn(request).user.id, {
          id: request.body.id,
          origin: siteOrigin(request, options.publicUrl),
          now: new Date(),
        }),
      ),
  );

  routes.post(
    '/web/device/keep',
    { config: auth, schema: { body: deviceKeepRequest, response: replies(deviceListSchema) } },
    async (request) =>
      ok(
        request,
        await keepDevices(options, signedIn(request).user.id, {
          ids: request.body.ids,
          origin: siteOrigin(request, options.publicUrl),
          now: new Date(),
        }),
      ),
  );

  routes.post(
    '/web/device/bind',
    { config: auth, schema: { body: noFields, response: replies(deviceBindSchema) } },
    async (request) => {
      const hwid = request.headers[HWID_HEADER];
      if (typeof hwid !== 'string' || hwid.trim() === '' || hwid.length > HWID_MAX) {
        throw new AppError(400, 'field_invalid', { field: HWID_HEADER });
      }
      return ok(
        request,
        await bindDevice(options, signedIn(request).user.id, {
          hwid: hwid.trim(),
          origin: siteOrigin(request, options.publicUrl),
          now: new Date(),
        }),
      );
    },
  );
}
