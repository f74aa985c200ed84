import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The layers of docs/architecture.md, checked on the source: `modules/access` is the ground floor
 * and the only writer of an account's access; orders own "an order is paid"; the payment providers
 * are adapters on top. A change that breaks a rule fails here with the file that broke it.
 */

const SRC = path.dirname(new URL(import.meta.url).pathname);

/** The server's own code: no tests, test support, fault runs or benches. */
function productionFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return ['testing', 'faults', 'bench', 'migrations'].includes(entry.name) ? [] : productionFiles(full);
    }
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const files = productionFiles().map((file) => ({
  name: path.relative(SRC, file),
  text: readFileSync(file, 'utf8'),
}));

const importsOf = (text: string) =>
  [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/g)].map((match) => match[1] ?? '');

const inside = (name: string, dir: string) => name.startsWith(`${dir}/`);

const ACCESS_COLUMNS = /\b(expireAt|connections|pendingConnections|pendingFrom|autoRenew|subscribeType)\s*:/;

/** The `.set({...})` of every `.update(users)` in a file (up to its `.where(`). */
const userUpdates = (text: string) =>
  [...text.matchAll(/\.update\(users\)([\s\S]*?)\.where\(/g)].map((match) => match[1] ?? '');

describe('the layers', () => {
  it('finds the code it checks', () => {
    expect(files.map((file) => file.name)).toEqual(
      expect.arrayContaining(['modules/access/repository.ts', 'modules/orders/fulfilment.ts', 'app.ts']),
    );
  });

  it('lets nothing outside modules/access write the access columns or the ledger', () => {
    const offenders = files
      .filter((file) => !inside(file.name, 'modules/access') && !inside(file.name, 'db/schema'))
      .filter(
        (file) =>
          userUpdates(file.text).some((set) => ACCESS_COLUMNS.test(set)) ||
          /insert\(expiryLedger\)|update\(expiryLedger\)/.test(file.text) ||
          /\b(update\s+users|insert\s+into\s+expiry_ledger)\b/i.test(file.text),
      )
      .map((file) => file.name);
    expect(offenders).toEqual([]);
    // The check itself sees a write of the columns where there is one.
    const writer = files.find((file) => file.name === 'modules/access/repository.ts');
    expect(userUpdates(writer?.text ?? '').some((set) => ACCESS_COLUMNS.test(set))).toBe(true);
  });

  it('keeps modules/access on the ground floor: it imports nothing above it', () => {
    const upward = files
      .filter((file) => inside(file.name, 'modules/access'))
      .flatMap((file) =>
        importsOf(file.text)
          .filter((from) => from.startsWith('../') && !from.startsWith('../../db/'))
          .map((from) => `${file.name} → ${from}`),
      );
    expect(upward).toEqual([]);
  });

  it('keeps orders free of the payment providers, and providers out of access', () => {
    const wrong = files.flatMap((file) =>
      importsOf(file.text)
        .filter(
          (from) =>
            (inside(file.name, 'modules/orders') && from.includes('/payments/')) ||
            (inside(file.name, 'modules/payment-events') &&
              from.startsWith('../') &&
              !from.startsWith('../../db/')),
        )
        .map((from) => `${file.name} → ${from}`),
    );
    expect(wrong).toEqual([]);
  });

  it('imports route files only where the app registers them', () => {
    const registrars = ['app.ts', 'admin-api.ts', 'modules/payments/payments.ts'];
    const wrong = files
      .filter((file) => !registrars.includes(file.name))
      .flatMap((file) =>
        importsOf(file.text)
          .filter((from) => /routes\.ts$/.test(from))
          .map((from) => `${file.name} → ${from}`),
      );
    expect(wrong).toEqual([]);
  });
});
