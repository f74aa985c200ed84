import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  planAdminSchema,
  planParams,
  planPatchRequest,
  SETTINGS,
  settingsPatchRequest,
  settingsSchema,
} from '@skyway/shared/schemas/admin/settings';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { ok, replies } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { signedInStaff } from '../staff/signed-in-staff.ts';
import { recordAudit } from '../audit/repository.ts';
import { findPlan, readPlans, setUnitPrice } from '../orders/plans-repository.ts';
import { readSettings, resetSetting, type SettingKey, writeSetting } from '../settings/repository.ts';

/**
 * The operator's settings and the plans' prices in the back office, with the rules of the settings
 * command (which stays, as a break-glass tool). Several settings change together or not at all.
 */
export async function settingsRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  const { db } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['settings'];

  routes.get(
    '/settings',
    { config: { staff: 'settings.view' }, schema: { tags, response: replies(settingsSchema) } },
    async (request) => ok(request, await readSettings(db)),
  );

  routes.patch(
    '/settings',
    {
      config: { staff: 'settings.edit' },
      schema: { tags, body: settingsPatchRequest, response: replies(settingsSchema) },
    },
    async (request) => {
      const changes = Object.entries(request.body) as [SettingKey, string | number | null][];
      for (const [key, value] of changes) {
        if (value !== null && !SETTINGS[key].safeParse(String(value)).success) {
          throw new AppError(400, 'field_invalid', { field: key });
        }
      }
      const now = new Date();
      await db.transaction(async (tx) => {
        const before = await readSettings(tx);
        for (const [key, value] of changes) {
          if (value === null) await resetSetting(tx, key);
          else await writeSetting(tx, key, String(value));
        }
        const after = await readSettings(tx);
        await recordAudit(
          tx,
          signedInStaff(request).actor,
          {
            action: 'settings.change',
            targetType: 'settings',
            targetId: changes.map(([key]) => key).join(','),
            before: Object.fromEntries(changes.map(([key]) => [key, before[key]])),
            after: Object.fromEntries(changes.map(([key]) => [key, after[key]])),
          },
          now,
        );
      });
      return ok(request, await readSettings(db));
    },
  );

  routes.get(
    '/plans',
    { config: { staff: 'settings.view' }, schema: { tags, response: replies(z.array(planAdminSchema)) } },
    async (request) => ok(request, await readPlans(db)),
  );

  routes.patch(
    '/plans/:period',
    {
      config: { staff: 'plans.edit' },
      schema: { tags, params: planParams, body: planPatchRequest, response: replies(planAdminSchema) },
    },
    async (request) => {
      const { period } = request.params;
      const changed = await db.transaction(async (tx) => {
        const before = await findPlan(tx, period);
        await setUnitPrice(tx, period, request.body.unit_price);
        const after = await findPlan(tx, period);
        if (!before || !after) throw new AppError(404, 'not_found');
        await recordAudit(
          tx,
          signedInStaff(request).actor,
          {
            action: 'plans.change_price',
            targetType: 'plan',
            targetId: period,
            before: { unit_price: before.unit_price },
            after: { unit_price: after.unit_price },
          },
          new Date(),
        );
        return after;
      });
      return ok(request, changed);
    },
  );
}
