// `npm run settings -- list | get KEY | set KEY VALUE | reset KEY`: the operator's settings (trial,
// invitation rewards) until an admin console exists. Uses the same database as the server
// (DATABASE_URL, or the embedded one in DATA_DIR, which must not be open in a running server).
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import {
  isSettingKey,
  readSettings,
  resetSetting,
  SETTINGS,
  writeSetting,
} from '../modules/settings/settings.ts';

const USAGE = `usage: npm run settings -- list | get KEY | set KEY VALUE | reset KEY
keys: ${Object.keys(SETTINGS).join(', ')}`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const [command = 'list', key, value] = process.argv.slice(2);
let config;
try {
  config = loadConfig();
} catch (error) {
  fail(error instanceof ConfigError ? error.message : String(error));
}
if (key !== undefined && !isSettingKey(key)) fail(`unknown setting "${key}"\n${USAGE}`);

const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await database.migrate();
  if (command === 'set' && key && value !== undefined && isSettingKey(key)) {
    await writeSetting(database.db, key, value);
  } else if (command === 'reset' && key && isSettingKey(key)) {
    await resetSetting(database.db, key);
  } else if (!['list', 'get'].includes(command) || (command === 'get' && !key)) {
    fail(USAGE);
  }
  const current = await readSettings(database.db);
  for (const [name, setting] of Object.entries(current)) {
    if (!key || name === key) console.log(`${name}=${setting}`);
  }
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  await database.close();
}
