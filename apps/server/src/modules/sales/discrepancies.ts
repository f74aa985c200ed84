import type { Database } from '../../db/client.ts';
import type { TrafficDiscrepancyRow } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { recordAudit, type StaffActor } from '../audit/repository.ts';
import { nodeNames } from '../nodes/repository.ts';
import { lockDiscrepancy, markDiscrepancyResolved } from '../traffic/discrepancies.ts';

/**
 * A member of staff has looked at an hour whose reports and ledger disagree, and says what they
 * found: it leaves the attention queue, once (a second click answers 409), with its audit row.
 */
export async function resolveDiscrepancy(
  db: Database,
  actor: StaffActor,
  request: { id: string; reason: string; now: Date },
): Promise<{ discrepancy: TrafficDiscrepancyRow; nodeName: string }> {
  return db.transaction(async (tx) => {
    const found = await lockDiscrepancy(tx, request.id);
    if (!found) throw new AppError(404, 'not_found');
    if (found.resolvedAt) throw new AppError(409, 'already_resolved');
    const nodeName = (await nodeNames(tx, [found.nodeId])).get(found.nodeId);
    // Its node's removal removes it (cascade), and the lock keeps the node until this ends.
    if (nodeName === undefined) throw new AppError(404, 'not_found');
    const resolved = await markDiscrepancyResolved(tx, request.id, {
      at: request.now,
      by: actor.staffId,
      reason: request.reason,
    });
    await recordAudit(
      tx,
      actor,
      {
        action: 'traffic.resolve',
        targetType: 'traffic_discrepancy',
        targetId: request.id,
        before: { resolved: false },
        after: { resolved: true, reason: request.reason },
      },
      request.now,
    );
    return { discrepancy: resolved, nodeName };
  });
}
