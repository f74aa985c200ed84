import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { uuidParams } from '@skyway/shared/schemas/admin/common';
import {
  inboundRequest,
  inboundSchema,
  nodeCreateRequest,
  nodePatchRequest,
  nodeListItemSchema,
  nodeSchema,
  nodeTokenSchema,
} from '@skyway/shared/schemas/admin/nodes';
import { noFields } from '@skyway/shared/schemas/envelope';
import type { Database } from '../../db/client.ts';
import { ok, replies } from '../../http/envelope.ts';
import { signedInStaff } from '../staff/signed-in-staff.ts';
import { presentInbound, presentNode } from './present.ts';
import {
  changeInbound,
  changeNode,
  createInbound,
  createNode,
  issueNodeToken,
  nodeList,
  removeInbound,
  removeNode,
  revokeNodeToken,
} from './service.ts';

/** The back office's proxy nodes and their inbounds (the rules are in service.ts). */
export async function nodeRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  const { db } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['nodes'];

  routes.get(
    '/nodes',
    { config: { staff: 'nodes.view' }, schema: { tags, response: replies(z.array(nodeListItemSchema)) } },
    async (request) => ok(request, await nodeList(db, new Date())),
  );

  routes.post(
    '/nodes',
    {
      config: { staff: 'nodes.edit' },
      schema: { tags, body: nodeCreateRequest, response: replies(nodeSchema) },
    },
    async (request) => {
      const created = await createNode(db, signedInStaff(request).actor, request.body);
      return ok(request, presentNode(created));
    },
  );

  routes.patch(
    '/nodes/:id',
    {
      config: { staff: 'nodes.edit' },
      schema: { tags, params: uuidParams, body: nodePatchRequest, response: replies(nodeSchema) },
    },
    async (request) => {
      const changed = await changeNode(db, signedInStaff(request).actor, request.params.id, request.body);
      return ok(request, presentNode(changed));
    },
  );

  routes.delete(
    '/nodes/:id',
    { config: { staff: 'nodes.edit' }, schema: { tags, params: uuidParams, response: replies(noFields) } },
    async (request) => {
      await removeNode(db, signedInStaff(request).actor, request.params.id);
      return ok(request, {});
    },
  );

  routes.post(
    '/nodes/:id/token',
    {
      config: { staff: 'nodes.edit' },
      schema: { tags, params: uuidParams, response: replies(nodeTokenSchema) },
    },
    async (request) => {
      const token = await issueNodeToken(db, signedInStaff(request).actor, request.params.id);
      return ok(request, { token });
    },
  );

  routes.delete(
    '/nodes/:id/token',
    { config: { staff: 'nodes.edit' }, schema: { tags, params: uuidParams, response: replies(noFields) } },
    async (request) => {
      await revokeNodeToken(db, signedInStaff(request).actor, request.params.id);
      return ok(request, {});
    },
  );

  routes.post(
    '/nodes/:id/inbounds',
    {
      config: { staff: 'nodes.edit' },
      schema: { tags, params: uuidParams, body: inboundRequest, response: replies(inboundSchema) },
    },
    async (request) => {
      const created = await createInbound(db, signedInStaff(request).actor, request.params.id, request.body);
      return ok(request, presentInbound(created));
    },
  );

  routes.patch(
    '/inbounds/:id',
    {
      config: { staff: 'nodes.edit' },
      schema: { tags, params: uuidParams, body: inboundRequest, response: replies(inboundSchema) },
    },
    async (request) => {
      const changed = await changeInbound(db, signedInStaff(request).actor, request.params.id, request.body);
      return ok(request, presentInbound(changed));
    },
  );

  routes.delete(
    '/inbounds/:id',
    { config: { staff: 'nodes.edit' }, schema: { tags, params: uuidParams, response: replies(noFields) } },
    async (request) => {
      await removeInbound(db, signedInStaff(request).actor, request.params.id);
      return ok(request, {});
    },
  );
}
