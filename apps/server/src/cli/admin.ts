// `npm run admin -- invite-owner EMAIL`: the first owner of the back office (or a new link for an
// owner who has not set up yet). Prints a one-time set-up link, good for 24 hours, to open in a
// browser: it sets the password and the authenticator app. Owners invite everyone else from the
// back office. The link is on ADMIN_PUBLIC_URL when set, else on PUBLIC_URL. Uses the same database
// as the server (DATABASE_URL, or the embedded one in DATA_DIR); while a server has the embedded
// one open, the command asks that server for the link instead.
import { z } from 'zod';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { DataDirectoryBusyError } from '../db/data-dir-lock.ts';
import { askServerForOwnerLink } from '../modules/staff/owner-invites-socket.ts';
import { inviteOwner, SETUP_LINK_HOURS } from '../modules/staff/service.ts';

const USAGE = 'usage: npm run admin -- invite-owner EMAIL';

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const [command, given] = process.argv.slice(2);
if (command !== 'invite-owner' || !given) fail(USAGE);
const email = given.trim();
if (!z.email().safeParse(email).success) fail(`"${given}" is not an e-mail address\n${USAGE}`);
let config;
try {
  config = loadConfig();
} catch (error) {
  fail(error instanceof ConfigError ? error.message : String(error));
}

/** The link from the database itself, or from the running server that has the embedded one open. */
async function ownerLink(origin: string, dataDir: string, databaseUrl?: string): Promise<string> {
  let database;
  try {
    database = await openDatabase({ databaseUrl, dataDir, holder: 'npm run admin' });
  } catch (error) {
    if (!(error instanceof DataDirectoryBusyError)) throw error;
    // Another command holds it, not a server: its message says what to do.
    return (await askServerForOwnerLink(dataDir, email)) ?? fail(error.message);
  }
  try {
    await database.migrate();
    return await inviteOwner(database.db, email, origin, new Date());
  } finally {
    await database.close();
  }
}

try {
  const origin = config.adminPublicUrl ?? config.payments.publicUrl ?? `http://localhost:${config.port}`;
  const link = await ownerLink(origin, config.dataDir, config.databaseUrl);
  console.log(`Set-up link for ${email} (owner), good once within ${SETUP_LINK_HOURS} hours:\n${link}`);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
