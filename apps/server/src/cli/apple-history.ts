// `npm run apple:history -- [--since TIME] [--until TIME] [--only-failures]`: recovers App Store
// notifications the server missed (it was down, or answered 500 until Apple gave up). Asks Apple's
// notification history for the range (default: the last 24 hours) and applies every notification
// through the notify route's own path; those already handled are skipped by their notificationUUID,
// so running it twice, or over a range the server handled, changes nothing. Needs the APPLE_* keys
// of the server plus APPLE_ISSUER_ID, APPLE_KEY_ID and APPLE_PRIVATE_KEY_PATH, and the same database
// (DATABASE_URL, or the embedded one in DATA_DIR, which it refuses to open while a server or
// another command has it open); the server's other keys are not read.
import { ConfigError, loadAppleHistoryConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import {
  createAppleApiClient,
  failureReason,
  HISTORY_USAGE,
  parseHistoryArgs,
  recoverAppleNotifications,
} from '../modules/payments/apple-history.ts';
import { createAppleVerifier } from '../modules/payments/apple-verify.ts';

function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}

let config;
let range;
try {
  config = loadAppleHistoryConfig();
  range = parseHistoryArgs(process.argv.slice(2), new Date());
} catch (error) {
  fail(error instanceof ConfigError ? error.message : `${failureReason(error)}\n${HISTORY_USAGE}`);
}
const apple = config.apple;
if (!apple) fail('App Store notifications are off: set APPLE_BUNDLE_ID and the other APPLE_* keys');
let client;
let verifier;
try {
  client = createAppleApiClient(apple);
  verifier = createAppleVerifier(apple, config.env);
} catch (error) {
  fail(failureReason(error));
}

const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  holder: 'npm run apple:history',
}).catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
let exitCode = 0;
try {
  await database.migrate();
  console.log(`App Store notifications from ${range.since.toISOString()} to ${range.until.toISOString()}`);
  const summary = await recoverAppleNotifications(
    client,
    { db: database.db, verifier, products: apple.products },
    range,
  );
  console.log(`seen=${summary.seen}`);
  for (const [outcome, count] of Object.entries(summary.outcomes)) console.log(`${outcome}=${count}`);
} catch (error) {
  console.error(`stopped: ${failureReason(error)}`);
  exitCode = 1;
} finally {
  await database.close();
}
process.exit(exitCode);
