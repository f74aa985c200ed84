import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { nodes, type TrafficDiscrepancyRow, trafficDiscrepancies } from '../../db/schema/index.ts';
import { AppError } from '../../plugins/errors.ts';
import { recordAudit, type StaffActor } from '../audit/repository.ts';

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
    const [found] = await tx
      .select({ discrepancy: trafficDiscrepancies, nodeName: nodes.name })
      .from(trafficDiscrepancies)
      .innerJoin(nodes, eq(nodes.id, trafficDiscrepancies.nodeId))
      .where(eq(trafficDiscrepancies.id, request.id))
      .for('update', { of: trafficDiscrepancies });
    if (!found) throw new AppError(404, 'not_found');
    if (found.discrepancy.resolvedAt) throw new AppError(409, 'already_resolved');
    const [resolved] = await tx
      .update(trafficDiscrepancies)
      .set({ resolvedAt: request.now, resolvedBy: actor.staffId, resolution: request.reason })
      .where(eq(trafficDiscrepancies.id, request.id))
      .returning();
    if (!resolved) throw new Error('discrepancy not written');
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
    return { discrepancy: resolved, nodeName: found.nodeName };
  });
}
