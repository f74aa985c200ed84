import pg from 'pg';

/**
 * What changed: the accounts named, or every account (`all`: a statement that changed more than 100
 * of them, or a moment in which changes may have gone unheard).
 */
export interface AccountChange {
  users: readonly string[] | 'all';
  /**
   * `written`: this instance's own statement changed them and has not committed yet; `committed`:
   * a change by anyone has committed; `unheard`: the feed lost its connection, or has just got it back.
   */
  stage: 'written' | 'committed' | 'unheard';
}

/**
 * The changes to what a signed-in call reads of an account (migration 0008 announces them), as
 * heard by this instance: its own statements' notices, at once, and every committed change on the
 * channel `account_changes`, through a connection of its own that comes back by itself.
 */
export interface AccountChanges {
  /** True while committed changes are being heard; what is read while false may go stale unheard. */
  live(): boolean;
  /** Calls `listener` with each change; returns a function that stops it. */
  subscribe(listener: (change: AccountChange) => void): () => void;
  /** Turns a pool connection's notices of its own changes into `written` changes. */
  watchConnection(connection: pg.ClientBase): void;
  close(): Promise<void>;
}

const CHANNEL = 'account_changes';
/** The SQLSTATE of migration 0008's notice. */
const NOTICE_CODE = 'SWACC';
/** The connection setting that asks migration 0008 for the notices. */
export const NOTICES_OPTION = '-c skyway.account_change_notices=on';
/** Retries of a lost connection: the first soon, then further apart. */
const RETRY_MS = { first: 200, max: 5_000 };
/**
 * The connection is asked a question this often; when one goes unanswered longer than the timeout
 * (a server that stopped, a network that drops everything), it is taken as lost: what cannot hear
 * the changes must not be trusted to, for longer than that.
 */
const HEARTBEAT = { everyMs: 1_000, timeoutMs: 2_000 };

function parsed(payload: string | undefined): AccountChange['users'] {
  if (!payload || payload === '*') return 'all';
  return payload.split(',');
}

export function listenForAccountChanges(
  databaseUrl: string,
  onLost: (error: Error) => void = () => undefined,
): AccountChanges {
  const listeners = new Set<(change: AccountChange) => void>();
  const tell = (change: AccountChange) => {
    for (const listener of listeners) listener(change);
  };
  let client: pg.Client | undefined;
  let isLive = false;
  let closed = false;
  let retryMs = RETRY_MS.first;
  let retry: NodeJS.Timeout | undefined;
  let questionAskedAt: number | undefined;
  const unanswered = () =>
    questionAskedAt !== undefined && Date.now() - questionAskedAt > HEARTBEAT.timeoutMs;

  const lose = (error: Error, lost: pg.Client) => {
    if (client !== lost) return;
    client = undefined;
    isLive = false;
    questionAskedAt = undefined;
    tell({ users: 'all', stage: 'unheard' });
    lost.end().catch(() => undefined);
    if (closed) return;
    onLost(error);
    retry = setTimeout(() => void connect(), retryMs);
    retry.unref();
    retryMs = Math.min(retryMs * 2, RETRY_MS.max);
  };

  const connect = async () => {
    const candidate = new pg.Client({
      connectionString: databaseUrl,
      keepAlive: true,
      connectionTimeoutMillis: HEARTBEAT.timeoutMs * 2,
      application_name: 'skyway account changes',
    });
    client = candidate;
    candidate.on('error', (error) => lose(error, candidate));
    candidate.on('end', () => lose(new Error('the connection ended'), candidate));
    candidate.on('notification', (message) => {
      if (message.channel === CHANNEL) tell({ users: parsed(message.payload), stage: 'committed' });
    });
    try {
      await candidate.connect();
      await candidate.query(`listen ${CHANNEL}`);
    } catch (error) {
      lose(error as Error, candidate);
      return;
    }
    if (closed || client !== candidate) return;
    retryMs = RETRY_MS.first;
    isLive = true;
    // What was read before now may predate changes no one heard.
    tell({ users: 'all', stage: 'unheard' });
  };
  void connect();

  const heartbeat = setInterval(() => {
    const asked = client;
    if (!asked || !isLive) return;
    if (questionAskedAt !== undefined) {
      if (unanswered()) lose(new Error('the connection stopped answering'), asked);
      return;
    }
    questionAskedAt = Date.now();
    asked.query('select 1').then(
      () => {
        if (client === asked) questionAskedAt = undefined;
      },
      (error: Error) => lose(error, asked),
    );
  }, HEARTBEAT.everyMs);
  heartbeat.unref();

  return {
    live: () => isLive && !unanswered(),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    watchConnection(connection) {
      connection.on('notice', (notice) => {
        if (notice.code === NOTICE_CODE) tell({ users: parsed(notice.message), stage: 'written' });
      });
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const open = client;
      client = undefined;
      isLive = false;
      await open?.end().catch(() => undefined);
    },
  };
}
