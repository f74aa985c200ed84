import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The layers of docs/architecture.md, checked on the source: `modules/access` is the ground floor
 * and the only writer of an account's access; orders own "an order is paid"; the payment providers
 * are adapters on top; `modules/nodes` owns the nodes, their inbounds and who a node admits, and
 * `modules/traffic` the traffic ledger; no two modules import each other, however indirectly. A
 * change that breaks a rule fails here with the file that broke it.
 */

const SRC = path.dirname(new URL(import.meta.url).pathname);

/** The server's own code: no tests or test support. */
function productionFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return ['testing', 'migrations'].includes(entry.name) ? [] : productionFiles(full);
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

/** A file without its comments: prose may say "from nodes" where no query does. */
const codeOf = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** The tables a file imports from the schema, as values (a query needs them; a row type does not). */
const schemaTablesOf = (text: string) =>
  [...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'[./]*db\/schema\/index\.ts'/g)].flatMap((match) =>
    (match[1] ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '' && !name.startsWith('type ')),
  );

/** Raw SQL in a file (its template strings) that names one of these tables. */
const rawSqlNames = (text: string, tables: readonly string[]) =>
  [...codeOf(text).matchAll(/`[^`]*`/g)].some((match) =>
    new RegExp(`\\b(from|join|into|update|table)\\s+(${tables.join('|')})\\b`, 'i').test(match[0]),
  );

/**
 * The files outside `owner` that query these tables: they import the table from the schema (every
 * Drizzle query, `from(nodes)`, `update(nodes)`, `insert(inbounds)`, `${nodes}` in SQL, needs it), or
 * name it in raw SQL.
 */
const queriersOutside = (owner: string, tables: { schema: string; sql: string }[]) =>
  files
    .filter((file) => !inside(file.name, owner) && !inside(file.name, 'db/schema'))
    .filter(
      (file) =>
        schemaTablesOf(file.text).some((name) => tables.some((table) => table.schema === name)) ||
        rawSqlNames(
          file.text,
          tables.map((table) => table.sql),
        ),
    )
    .map((file) => file.name);

const NODE_TABLES = [
  { schema: 'nodes', sql: 'nodes' },
  { schema: 'inbounds', sql: 'inbounds' },
];
const LEDGER_TABLES = [
  { schema: 'trafficHourly', sql: 'traffic_hourly' },
  { schema: 'nodeReports', sql: 'node_reports' },
  { schema: 'trafficDiscrepancies', sql: 'traffic_discrepancies' },
];

/** Each module folder's imports of other module folders. */
function moduleImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files.filter((each) => inside(each.name, 'modules'))) {
    const [, from] = file.name.split('/');
    for (const specifier of importsOf(file.text)) {
      const target = path.relative(SRC, path.resolve(SRC, path.dirname(file.name), specifier));
      const [top, to] = target.split(path.sep);
      if (top !== 'modules' || !from || !to || to === from) continue;
      graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** The groups of modules that import each other, directly or through others (Tarjan's algorithm). */
function importCycles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (module: string) => {
    index.set(module, index.size);
    low.set(module, index.get(module) ?? 0);
    stack.push(module);
    for (const next of graph.get(module) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(module, Math.min(low.get(module) ?? 0, low.get(next) ?? 0));
      } else if (stack.includes(next)) {
        low.set(module, Math.min(low.get(module) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(module) !== index.get(module)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member) group.push(member);
    } while (member && member !== module);
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const module of [...graph.keys()].sort()) if (!index.has(module)) visit(module);
  return cycles;
}

/**
 * The marks of the rule for which slots a node admits (its fewest connections, its plans, a slot's
 * place among its account's connections): found in modules/nodes/admission.ts alone.
 */
const ADMISSION_MARKS = [
  /\bfunction\s+(mayUseNode|admitted)\b/,
  /\bminConnections\s*<=|<=\s*[\w.]*minConnections\b/,
  /\bmin_connections\s*<=|<=\s*[\w.]*min_connections\b/,
  /\bperiods\.includes\(/,
  /greatest\(s\.position/,
];

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

  it('lets nothing outside modules/nodes query the nodes or their inbounds', () => {
    expect(queriersOutside('modules/nodes', NODE_TABLES)).toEqual([]);
    // The check itself sees the queries where they are.
    expect(queriersOutside('modules/traffic', NODE_TABLES)).toContain('modules/nodes/repository.ts');
  });

  it('lets nothing outside modules/traffic write or read the traffic ledger', () => {
    expect(queriersOutside('modules/traffic', LEDGER_TABLES)).toEqual([]);
    // The check itself sees the queries where they are, in Drizzle and in raw SQL.
    expect(queriersOutside('modules/nodes', LEDGER_TABLES)).toEqual(
      expect.arrayContaining(['modules/traffic/ledger.ts', 'modules/traffic/reconcile.ts']),
    );
  });

  it('defines who a node admits once, in modules/nodes/admission.ts, for the links, the node API and UniProxy', () => {
    const marked = files
      .filter((file) => ADMISSION_MARKS.some((mark) => mark.test(codeOf(file.text))))
      .map((file) => file.name);
    expect(marked).toEqual(['modules/nodes/admission.ts']);
    const imports = (name: string) => importsOf(files.find((file) => file.name === name)?.text ?? '');
    // The links filter with it, the node API hands out and takes reports by it, UniProxy through the node API.
    expect(imports('modules/subscriptions/service.ts')).toContain('../nodes/admission.ts');
    expect(imports('modules/node-api/service.ts')).toContain('../nodes/admission.ts');
    expect(imports('modules/node-api/reports.ts')).toContain('../nodes/admission.ts');
    expect(imports('modules/uniproxy/service.ts')).toContain('../node-api/service.ts');
  });

  it('has no two modules that import each other, directly or through others', () => {
    const graph = moduleImports();
    expect(importCycles(graph).map((cycle) => cycle.join(' ↔ '))).toEqual([]);
    // The check itself finds a loop where there is one.
    const looped = new Map(graph).set('traffic', new Set([...(graph.get('traffic') ?? []), 'nodes']));
    expect(importCycles(looped).map((cycle) => cycle.join(' ↔ '))).toEqual(['nodes ↔ traffic']);
  });
});

/** The top-level folder of src that a file is in, or the file itself for the files at the root (app.ts). */
const folderOf = (name: string) => name.split('/')[0] ?? name;

/** Every import from one top-level folder of src into another: `from → to` with the files that make it. */
function folderImports(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of files) {
    for (const from of importsOf(file.text).filter((spec) => spec.startsWith('.'))) {
      const target = path.relative(SRC, path.resolve(SRC, path.dirname(file.name), from));
      const [source, destination] = [folderOf(file.name), folderOf(target)];
      if (source === destination || target.startsWith('..')) continue;
      const edges = graph.get(source) ?? new Map<string, string[]>();
      edges.set(destination, [...(edges.get(destination) ?? []), `${file.name} → ${target}`]);
      graph.set(source, edges);
    }
  }
  return graph;
}

/** The imports between folders that close a loop: `to` reaches `from` again through other imports. */
function loopingImports(graph: Map<string, Map<string, string[]>>): string[] {
  const reaches = (start: string, goal: string) => {
    const seen = new Set<string>();
    const next = [start];
    for (let folder = next.pop(); folder !== undefined; folder = next.pop()) {
      if (folder === goal) return true;
      if (seen.has(folder)) continue;
      seen.add(folder);
      next.push(...(graph.get(folder)?.keys() ?? []));
    }
    return false;
  };
  return [...graph].flatMap(([source, edges]) =>
    [...edges].filter(([destination]) => reaches(destination, source)).flatMap(([, imports]) => imports),
  );
}

describe('the folders of src', () => {
  it('import each other one way: no two folders (or root files) lean on each other', () => {
    expect(loopingImports(folderImports())).toEqual([]);
  });

  it('sees a loop where there is one, and names its files', () => {
    const graph = folderImports();
    expect(graph.get('modules')?.has('http')).toBe(true);
    graph.set('http', new Map([['modules', ['http/x.ts → modules/y.ts']]]));
    expect(loopingImports(graph)).toEqual(
      expect.arrayContaining(['http/x.ts → modules/y.ts', expect.stringMatching(/^modules\/.* → http\//)]),
    );
  });
});
