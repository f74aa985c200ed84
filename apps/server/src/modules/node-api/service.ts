import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type {
  nodeConfigSchema,
  nodeCredentialSchema,
  nodeCredentialsSchema,
  nodeOnlineRequest,
} from '@skyway/shared/schemas/node-api';
import { toUnixSeconds } from '@skyway/shared/dates';
import type { Database } from '../../db/client.ts';
import type { NodeRow } from '../../db/schema/index.ts';
import {
  admittedAmong,
  admittedCredentials,
  changedCredentials,
  type SlotCredential,
} from '../nodes/admission.ts';
import { recordRefusal } from '../nodes/refusals.ts';
import { enabledInbounds, settledRevision } from '../nodes/repository.ts';
import { receiveSightings } from '../presence/service.ts';
import type { PresencePolicy } from '../presence/rules.ts';

/** How often agents report traffic, and pull when their change stream is down (seconds). */
export const REPORT_INTERVAL_SECONDS = 60;
export const PULL_INTERVAL_SECONDS = 60;

type NodeConfig = z.infer<typeof nodeConfigSchema>;

/** What the node serves, and its ETag (a hash of it: any change of an inbound is a new one). */
export async function nodeConfig(
  db: Database,
  node: NodeRow,
  onlineIntervalSeconds: number,
): Promise<{ config: NodeConfig; etag: string }> {
  const rows = await enabledInbounds(db, node.id);
  const config: NodeConfig = {
    node: { id: node.id, name: node.name, host: node.host },
    inbounds: rows.map((row) => ({
      id: row.id,
      tag: `${row.protocol}-${row.port}`,
      protocol: row.protocol as NodeConfig['inbounds'][number]['protocol'],
      port: row.port,
      transport: row.transport as NodeConfig['inbounds'][number]['transport'],
      path: row.path,
      security: row.security as NodeConfig['inbounds'][number]['security'],
      server_name: row.serverName,
      flow: row.flow as NodeConfig['inbounds'][number]['flow'],
      reality_public_key: row.realityPublicKey,
      reality_short_id: row.realityShortId,
      method: row.method as NodeConfig['inbounds'][number]['method'],
      server_key: row.serverKey,
    })),
    report_interval: REPORT_INTERVAL_SECONDS,
    pull_interval: PULL_INTERVAL_SECONDS,
    online_interval: onlineIntervalSeconds,
  };
  const etag = `"${createHash('sha256').update(JSON.stringify(config)).digest('base64url')}"`;
  return { config, etag };
}

const credentialOf = (slot: SlotCredential): z.infer<typeof nodeCredentialSchema> => ({
  id: slot.id,
  email: slot.id,
  uuid: slot.credential,
  password: slot.secret,
  refused: slot.refused,
  expires_at: slot.expires_at === null ? null : toUnixSeconds(new Date(slot.expires_at)),
});

/**
 * The credentials the node must hold, as the changes since the revision it has, or the whole list
 * when it has none, or when who may use the node changed after it (the node's own revision). Each
 * change is the slot's state now, so a change sent twice does no harm. Who may connect: the rule of
 * the subscription links, evaluated by the database (`admitted` in nodes/admission.ts).
 */
export async function nodeCredentials(
  db: Database,
  node: NodeRow,
  since: number,
  now: Date,
): Promise<z.infer<typeof nodeCredentialsSchema>> {
  const revision = await settledRevision(db);
  const full = since === 0 || since < node.revision || since > revision;
  if (full) {
    const slots = await admittedCredentials(db, node, now);
    return { revision, full, upsert: slots.map(credentialOf), remove: [] };
  }
  const changed = await changedCredentials(db, node, since, now);
  const upsert = [];
  const remove = [];
  for (const slot of changed) {
    if (slot.admitted) upsert.push(credentialOf(slot));
    else remove.push(slot.id);
  }
  return { revision, full, upsert, remove };
}

/**
 * A node's live source addresses per credential (`online`, or a 1.0 agent's report): those of slots
 * the node admits now go to the one-device rule; the others change nothing and are counted for
 * staff. Answers how many slots were refused.
 */
export async function receiveLiveAddresses(
  db: Database,
  node: NodeRow,
  addresses: z.infer<typeof nodeOnlineRequest>['addresses'],
  now: Date,
  policy: PresencePolicy,
): Promise<number> {
  const seen = addresses.filter((entry) => entry.ips.length > 0);
  const admitted = await admittedAmong(
    db,
    node,
    seen.map((entry) => entry.id),
    [now],
  );
  const foreign = new Set(seen.filter((entry) => !admitted.has(entry.id)).map((entry) => entry.id));
  if (foreign.size > 0) await recordRefusal(db, node.id, 'foreign_sightings', { slots: foreign.size }, now);
  await receiveSightings(
    db,
    seen.filter((entry) => admitted.has(entry.id)),
    now,
    policy,
  );
  return foreign.size;
}
