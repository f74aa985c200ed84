/** One sample of a Prometheus text exposition. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** Metric name → type, from `# TYPE` lines. */
  types: Map<string, string>;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses the text format (version 0.0.4); lines it cannot read are an error, so a broken exposition fails. */
export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (\S+)/.exec(line);
      if (type?.[1] && type[2]) types.set(type[1], type[2]);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match?.[1] || match[3] === undefined) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? '').matchAll(LABEL)) labels[label[1] ?? ''] = label[2] ?? '';
    const raw = match[3];
    const value = raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : Number(raw);
    samples.push({ name: match[1], labels, value });
  }
  return { samples, types };
}

/**
 * Whether the exposition names a metric: a `# TYPE` line, or samples under its name (a histogram's
 * are `_bucket`, `_sum` and `_count`).
 */
export function names(exposition: Exposition, metric: string): boolean {
  if (exposition.types.has(metric)) return true;
  const own = new Set([metric, `${metric}_bucket`, `${metric}_sum`, `${metric}_count`, `${metric}_total`]);
  return exposition.samples.some((sample) => own.has(sample.name));
}

/** Samples of `metric` whose labels include `labels`. */
export function samplesOf(
  exposition: Exposition,
  metric: string,
  labels: Record<string, string> = {},
): Sample[] {
  return exposition.samples.filter(
    (sample) =>
      sample.name === metric && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
}
