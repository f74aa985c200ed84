// `npm run admin -- invite-owner EMAIL`: the first owner of the back office (or a new link for an
// owner who has not set up yet). Prints a one-time set-up link, good for 24 hours, to open in a
// browser: it sets the password and the authenticator app. Owners invite everyone else from the
// back office. Uses the same database as the server (DATABASE_URL, or the embedded one in DATA_DIR,
// which must not be open in a running server).
import { z } from 'zod';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { inviteOwner, SETUP_LINK_HOURS } from '../modules/staff/service.ts';

const USAGE = 'usage: npm run admin -- invite-owner EMAIL';

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const [command, email] = process.argv.slice(2);
if (command !== 'invite-owner' || !email) fail(USAGE);
if (!z.email().safeParse(email.trim()).success) fail(`"${email}" is not an e-mail address\n${USAGE}`);
let config;
try {
  config = loadConfig();
} catch (error) {
  fail(error instanceof ConfigError ? error.message : String(error));
}

const origin = config.payments.publicUrl ?? `http://localhost:${config.port}`;
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await database.migrate();
  const link = await inviteOwner(database.db, email.trim(), origin, new Date());
  console.log(
    `Set-up link for ${email.trim()} (owner), good once within ${SETUP_LINK_HOURS} hours:\n${link}`,
  );
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  await database.close();
}
