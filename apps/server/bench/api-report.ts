import { median } from './bench-app.ts';

type Unit = 'req/s' | 'ms' | 'MB' | 'scans';

/** One figure of the table: the product's value, what it is compared with, and its goal. */
interface Figure {
  measure: string;
  unit: Unit;
  /** What the product is compared with (the ratio is product / reference). */
  reference: string;
  /** The goal, for the figures that have one. */
  goal?: string;
  /** Whether the goal holds, given the product's median and its ratio to the reference's median. */
  holds?(product: number, ratio: number): boolean;
}

/** The figures this bench measures, each with the goal it is held to, in the order they are printed. */
export const FIGURES = {
  userInfoRate: {
    measure: '`POST /web/user/info` signed in, 64 connections, PostgreSQL: req/s',
    unit: 'req/s',
    reference: 'Fastify + pg pool `select 1`',
    goal: '≥ 0.5×',
    holds: (_, ratio) => ratio >= 0.5,
  },
  userInfoP99: {
    measure: '`POST /web/user/info` signed in, 64 connections, PostgreSQL: p99',
    unit: 'ms',
    reference: 'Fastify + pg pool `select 1`',
    goal: '≤ 20 ms',
    holds: (product) => product <= 20,
  },
  embeddedRate: {
    measure: 'the same on the embedded database: req/s',
    unit: 'req/s',
    reference: 'Fastify + PGlite `select 1`',
    goal: '≥ 0.3×',
    holds: (_, ratio) => ratio >= 0.3,
  },
  embeddedLoop: {
    measure: 'the same on the embedded database: event-loop p99',
    unit: 'ms',
    reference: 'Fastify + PGlite `select 1`',
  },
  invitesFirst: {
    measure: '`/web/invite/list`, inviter with 10,000 invitees, page 1: p50',
    unit: 'ms',
    reference: '`/web/order/list`, 10,000 orders, page 1',
    goal: '≤ 5 ms',
    holds: (product) => product <= 5,
  },
  invitesDeep: {
    measure: '`/web/invite/list`, inviter with 10,000 invitees, page 500: p50',
    unit: 'ms',
    reference: '`/web/order/list`, 10,000 orders, page 500',
    goal: '≤ 5 ms',
    holds: (product) => product <= 5,
  },
  invitesScans: {
    measure: 'sequential scans of `users` while the lists were served',
    unit: 'scans',
    reference: '—',
    goal: 'none',
    holds: (product) => product === 0,
  },
  signInServer: {
    measure: 'sign-in p50, PostgreSQL',
    unit: 'ms',
    reference: 'one argon2id hash',
    goal: '≤ 1.5×',
    holds: (_, ratio) => ratio <= 1.5,
  },
  signInEmbedded: {
    measure: 'sign-in p50, embedded database',
    unit: 'ms',
    reference: 'one argon2id hash',
    goal: '≤ 1.5×',
    holds: (_, ratio) => ratio <= 1.5,
  },
  healthDuringSignIns: {
    measure: '`/healthz` p99 during a burst of sign-ins, PostgreSQL',
    unit: 'ms',
    reference: '`/healthz` p99 idle',
    goal: '≤ 2×',
    holds: (_, ratio) => ratio <= 2,
  },
  idleMemory: {
    measure: 'idle memory (RSS) of one instance on PostgreSQL',
    unit: 'MB',
    reference: 'Fastify + pg',
    goal: '≤ 150 MB',
    holds: (product) => product <= 150,
  },
} satisfies Record<string, Figure>;

export type FigureId = keyof typeof FIGURES;

/** Every repeat's value of each figure, for the product and its reference. */
export class Results {
  private readonly values = new Map<FigureId, { reference: number[]; product: number[] }>();

  add(id: FigureId, side: 'reference' | 'product', value: number): void {
    const series = this.values.get(id) ?? { reference: [], product: [] };
    series[side].push(value);
    this.values.set(id, series);
  }

  series(id: FigureId): { reference: number[]; product: number[] } {
    return this.values.get(id) ?? { reference: [], product: [] };
  }
}

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

function format(value: number, unit: Unit): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (unit === 'ms') return `${value.toFixed(value < 10 ? 2 : 1)} ms`;
  if (unit === 'MB') return `${value.toFixed(0)} MB`;
  if (unit === 'req/s') return `${grouped.format(value)} req/s`;
  return grouped.format(value);
}

const spread = (values: number[], unit: Unit) =>
  values.length === 0
    ? 'n/a'
    : `min ${format(Math.min(...values), unit)} / median ${format(median(values), unit)} / max ${format(Math.max(...values), unit)}`;

interface Verdict {
  product: number;
  reference: number;
  ratio: number;
  /** Undefined when the figure has no goal. */
  holds?: boolean;
}

function verdict(id: FigureId, results: Results): Verdict {
  const figure: Figure = FIGURES[id];
  const series = results.series(id);
  const product = series.product.length ? median(series.product) : Number.NaN;
  const reference = series.reference.length ? median(series.reference) : Number.NaN;
  const ratio = product / reference;
  return { product, reference, ratio, holds: figure.holds?.(product, ratio) };
}

const ratioText = (ratio: number) => (Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : '—');

/** Each figure with its min / median / max over the repeats, for the product and its reference. */
export function describeFigures(results: Results): string[] {
  return (Object.keys(FIGURES) as FigureId[]).flatMap((id) => {
    const figure: Figure = FIGURES[id];
    const series = results.series(id);
    const { ratio } = verdict(id, results);
    return [
      figure.measure.replaceAll('`', ''),
      ...(series.reference.length
        ? [`  ${figure.reference.replaceAll('`', '')}: ${spread(series.reference, figure.unit)}`]
        : []),
      `  product: ${spread(series.product, figure.unit)}${series.reference.length ? `, ratio of the medians ${ratioText(ratio)}` : ''}`,
    ];
  });
}

/** The closing table (Markdown): medians, ratio, goal, pass or fail. */
export function summaryTable(results: Results): string[] {
  const rows = (Object.keys(FIGURES) as FigureId[]).map((id) => {
    const figure: Figure = FIGURES[id];
    const { product, reference, ratio, holds } = verdict(id, results);
    const referenceText =
      figure.reference === '—' ? '—' : `${figure.reference}: ${format(reference, figure.unit)}`;
    const result = holds === undefined ? '—' : holds ? 'pass' : 'FAIL';
    return `| ${figure.measure} | ${referenceText} | ${format(product, figure.unit)} | ${ratioText(ratio)} | ${figure.goal ?? '—'} | ${result} |`;
  });
  return [
    '| Measure | Reference (median) | Product (median) | Ratio | Goal | Result |',
    '|---|---|---|---|---|---|',
    ...rows,
  ];
}

/** Whether every figure's goal holds. */
export const allGoalsHold = (results: Results) =>
  (Object.keys(FIGURES) as FigureId[]).every((id) => verdict(id, results).holds !== false);
