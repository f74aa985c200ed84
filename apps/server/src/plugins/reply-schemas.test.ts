import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { startTestApp, useTestApp } from '../testing/test-app.ts';
import { ok, replies } from '../http/envelope.ts';

describe('reply schemas', () => {
  it('refuses to start with a /web/ route that declares no reply schema', async () => {
    await expect(
      startTestApp({}, (app) => {
        app.post('/web/test/unchecked', { config: { auth: 'public' } }, async () => ({}));
      }),
    ).rejects.toThrow('Route /web/test/unchecked must declare its reply schema');
  });

  it('starts with every /web/ route on, each with its reply schema (Stripe and App Store too)', async () => {
    const t = await startTestApp({
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_replies',
      STRIPE_WEBHOOK_SECRET: 'whsec_replies',
      APPLE_BUNDLE_ID: 'com.example.replies',
      APPLE_ENVIRONMENT: 'LocalTesting',
      APPLE_PRODUCTS: 'com.example.replies.month=month:1',
    });
    try {
      for (const url of ['/web/pay/stripe/notify', '/web/pay/apple/notify']) {
        expect(t.app.hasRoute({ method: 'POST', url }), url).toBe(true);
      }
    } finally {
      await t.close();
    }
  });

  describe('a reply', () => {
    const t = useTestApp(
      {},
      {
        extend: (app) => {
          const routes = app.withTypeProvider<ZodTypeProvider>();
          const options = {
            config: { auth: 'public' as const },
            schema: { response: replies(z.object({ name: z.string() })) },
          };
          routes.post('/web/test/more', options, async (request) =>
            ok(request, { name: 'Ann', password_hash: 'secret' }),
          );
          routes.post('/web/test/wrong', options, async (request) =>
            // A bug the schema catches: the type says otherwise.
            ok(request, { name: 42 as unknown as string }),
          );
        },
      },
    );

    it('carries only the fields its schema names', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/web/test/more' });
      expect(res.json()).toEqual({ code: 200, msg: 'Success', data: { name: 'Ann' } });
    });

    it('that does not fit its schema goes out as a 500 with the request id, not as it was', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/web/test/wrong' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        code: 500,
        msg: expect.any(String),
        data: { reason: 'internal_error', request_id: res.headers['x-request-id'] },
      });
    });
  });
});
