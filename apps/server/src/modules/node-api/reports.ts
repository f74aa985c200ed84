import type { z } from 'zod';
import type { nodeReportRequest } from '@skyway/shared/schemas/node-api';
import type { Database } from '../../db/client.ts';
import type { NodeRow } from '../../db/schema/index.ts';
import { admittedAmong } from '../nodes/admission.ts';
import { recordRefusal } from '../nodes/refusals.ts';
import { advanceReportWindow } from '../nodes/repository.ts';
import { type ChargedTraffic, creditReport, hourOf, recordReport } from '../traffic/ledger.ts';
import { lineBytes, MAX_WINDOW_SECONDS, reportWindowSeconds } from './plausibility.ts';

/** What became of a report. */
export interface ReportOutcome {
  /** False when its sequence had been applied before: nothing changed now. */
  applied: boolean;
  /** It claimed more bytes than the node's line could carry in its window: none were taken. */
  implausible: boolean;
}

/**
 * Applies a report once: its row (unique on the node and its sequence) and its bytes in the ledger,
 * in one transaction; a sequence applied before (or being applied by a concurrent delivery, which
 * waits on the row) changes nothing. The node's row is locked to read where its previous report's
 * window ended and move it on: a report claiming more bytes (raw, each way, every slot of it) than
 * the node's line could carry in its window is recorded with no bytes and counted for staff, and so
 * is a report with bytes of slots the node does not admit (dropped before this). Bytes of a slot that
 * no longer exists are dropped, and the report's totals are what the ledger received, for the daily
 * reconciliation.
 */
async function applyReport(
  db: Database,
  report: {
    node: NodeRow;
    sequence: number;
    from: Date;
    to: Date;
    hour: Date;
    /** The raw bytes the whole report claims, each way. */
    claimed: { upload: number; download: number };
    /** The slots whose bytes were dropped: the node does not admit them. */
    foreignSlots: number;
    traffic: ChargedTraffic[];
  },
  now: Date,
): Promise<ReportOutcome> {
  const { node } = report;
  return db.transaction(async (tx) => {
    const reportId = await recordReport(tx, {
      nodeId: node.id,
      sequence: report.sequence,
      from: report.from,
      to: report.to,
      hour: report.hour,
      ratePercent: node.ratePercent,
    });
    if (!reportId) return { applied: false, implausible: false };
    const window = await advanceReportWindow(tx, node.id, report.to);
    const seconds = reportWindowSeconds(report.from, report.to, window.reportedUntil);
    const allowed = lineBytes(window.lineMbps, seconds);
    if (report.claimed.upload > allowed || report.claimed.download > allowed) {
      await recordRefusal(
        tx,
        node.id,
        'implausible_traffic',
        { ...report.claimed, allowed, window_seconds: Math.round(seconds) },
        now,
      );
      return { applied: true, implausible: true };
    }
    if (report.foreignSlots > 0) {
      await recordRefusal(tx, node.id, 'foreign_traffic', { slots: report.foreignSlots }, now);
    }
    const moved = report.traffic.filter((slot) => slot.upload > 0 || slot.download > 0);
    if (moved.length === 0) return { applied: true, implausible: false };
    await creditReport(tx, { id: reportId, nodeId: node.id, hour: report.hour }, moved);
    return { applied: true, implausible: false };
  });
}

/**
 * Applies a node's report once, its bytes charged at the node's rate, in the hour its window ended
 * (by the node's clock, unless that is ahead of ours). Bytes of slots the node does not admit at its
 * window's start or end (the rule of the links: one query for the whole report) are dropped and
 * counted for staff; a report claiming more than the node's line could carry takes no bytes at all
 * (`applyReport`).
 */
export async function receiveReport(
  db: Database,
  node: NodeRow,
  report: z.infer<typeof nodeReportRequest>,
  now: Date,
): Promise<ReportOutcome & { refused: number }> {
  const charge = (bytes: number) => Math.round((bytes * node.ratePercent) / 100);
  const to = new Date(Math.min(report.to * 1000, now.getTime()));
  const from = new Date(Math.min(report.from * 1000, to.getTime()));
  const moving = report.traffic.filter((slot) => slot.upload > 0 || slot.download > 0);
  const windowStart = new Date(Math.max(from.getTime(), to.getTime() - MAX_WINDOW_SECONDS * 1_000));
  const admitted = await admittedAmong(
    db,
    node,
    moving.map((slot) => slot.id),
    [windowStart, to],
  );
  const foreign = new Set(moving.filter((slot) => !admitted.has(slot.id)).map((slot) => slot.id));
  const claimed = { upload: 0, download: 0 };
  for (const slot of moving) {
    claimed.upload += slot.upload;
    claimed.download += slot.download;
  }
  const outcome = await applyReport(
    db,
    {
      node,
      sequence: report.sequence,
      from,
      to,
      hour: hourOf(to),
      claimed,
      foreignSlots: foreign.size,
      traffic: moving
        .filter((slot) => admitted.has(slot.id))
        .map((slot) => ({ id: slot.id, upload: charge(slot.upload), download: charge(slot.download) })),
    },
    now,
  );
  return { ...outcome, refused: outcome.applied && !outcome.implausible ? foreign.size : 0 };
}
