import { loadAverage } from './api-run.ts';

/** A figure as the benches print it: milliseconds with 2 decimals under 10, else 1. */
export const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
/** A count with thousands separated. */
export const grouped = (value: number) => Math.round(value).toLocaleString('en-US');

/** A measure, its figure, its goal, and whether the figure meets it (undefined: no goal). */
export type GoalRow = [measure: string, figure: string, goal: string, holds: boolean | undefined];

/** Prints the goals table of a bench run; answers whether every goal was met. */
export function printGoals(rows: GoalRow[]): boolean {
  console.log(`\nfinished (${loadAverage()})\n`);
  console.log('| Measure | Figure | Goal | Result |');
  console.log('|---|---|---|---|');
  for (const [measure, figure, goal, holds] of rows) {
    console.log(
      `| ${measure} | ${figure} | ${goal} | ${holds === undefined ? '—' : holds ? 'pass' : 'FAIL'} |`,
    );
  }
  return rows.every(([, , , holds]) => holds !== false);
}
