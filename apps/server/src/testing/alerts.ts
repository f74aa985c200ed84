import type { Database } from '../db/client.ts';
import { runAlerts } from '../modules/alerts/alerts-job.ts';
import type { AlertMailer } from '../modules/alerts/delivery.ts';
import { testMailer } from './test-mailer.ts';

/** One run of the alerts job at `at` (now by default), as the scheduler runs it, linking to a test origin. */
export const runAlertsAt = (db: Database, at: number = Date.now(), mailer: AlertMailer = testMailer(db)) =>
  runAlerts({
    db,
    mailer,
    now: new Date(at),
    adminOrigin: 'https://admin.example.com',
    nodeSilentMinutes: 5,
  });
