/** The rows of a raw statement: both drivers (pg and PGlite) answer with `rows`; Drizzle's shared type cannot say so. */
export const rowsOf = <Row>(result: unknown) => (result as { rows: Row[] }).rows;
