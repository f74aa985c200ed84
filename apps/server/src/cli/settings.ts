// `npm run settings -- list | get KEY | set KEY VALUE | reset KEY | price PERIOD FEN`: the operator's
// settings (trial, invitation rewards, connections, time to pay) and plan prices: the break-glass
// tool beside the back office, and audited like it. Uses the same database as the server
// (DATABASE_URL, or the embedded one in DATA_DIR, which it refuses to open while a server or
// another command has it open).
import { PERIOD_NAMES, type Period } from '@skyway/shared/plans';
import { ConfigError, loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { COMMAND_LINE, recordAudit } from '../modules/audit/repository.ts';
import {
  isSettingKey,
  readSettings,
  resetSetting,
  SETTINGS,
  writeSetting,
} from '../modules/settings/repository.ts';
import { readPlans, setUnitPrice } from '../modules/orders/plans-repository.ts';

const USAGE = `usage: npm run settings -- list | get KEY | set KEY VALUE | reset KEY | price PERIOD FEN
keys: ${Object.keys(SETTINGS).join(', ')}
periods: ${PERIOD_NAMES.join(', ')} (unit price per connection, in fen: 2500 is ¥25.00)`;

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
const isPeriod = (value: string | undefined): value is Period =>
  (PERIOD_NAMES as readonly (string | undefined)[]).includes(value);
if (command === 'price' ? !isPeriod(key) : key !== undefined && !isSettingKey(key)) {
  fail(`unknown ${command === 'price' ? 'period' : 'setting'} "${key ?? ''}"\n${USAGE}`);
}

const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  holder: 'npm run settings',
}).catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
try {
  await database.migrate();
  // Each change is written with its audit row, as the back office writes its own.
  const audited = (action: string, target: string, after: unknown, change: (tx: Database) => Promise<void>) =>
    database.db.transaction(async (tx) => {
      await change(tx);
      await recordAudit(
        tx,
        COMMAND_LINE,
        { action, targetType: action.split('.')[0] ?? action, targetId: target, before: null, after },
        new Date(),
      );
    });
  if (command === 'price' && isPeriod(key) && value !== undefined) {
    await audited('plans.change_price', key, { unit_price: Number(value) }, (tx) =>
      setUnitPrice(tx, key, Number(value)),
    );
  } else if (command === 'set' && key && value !== undefined && isSettingKey(key)) {
    await audited('settings.change', key, { [key]: value }, (tx) => writeSetting(tx, key, value));
  } else if (command === 'reset' && key && isSettingKey(key)) {
    await audited('settings.change', key, { [key]: null }, (tx) => resetSetting(tx, key));
  } else if (!['list', 'get'].includes(command) || (command === 'get' && !key)) {
    fail(USAGE);
  }
  const current = await readSettings(database.db);
  for (const [name, setting] of Object.entries(current)) {
    if (!key || name === key) console.log(`${name}=${setting}`);
  }
  for (const plan of await readPlans(database.db)) {
    if (!key || plan.period === key) console.log(`price ${plan.period}=${plan.unit_price}`);
  }
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  await database.close();
}
