// `npm run bench:telegram`: a broadcast of 30,000 Telegram reminders, one to each of 30,000 bound
// chats, sent by the bot's worker against a stand-in Bot API on the loopback (which records when
// each message arrived). Prints the broadcast's duration against the limit's floor (messages / 30
// seconds: 1,000 s for 30,000), the busiest second and the shortest gap between two messages to one
// chat as the stand-in saw them, and the heap during the run, each beside its goal (exits 1 when one
// fails). The full size takes about 17 minutes: `--messages N` sends N instead.
//
// Needs DATABASE_URL or TEST_DATABASE_URL: a PostgreSQL server on which it may create a database.
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { openDatabase } from '../src/db/client.ts';
import { createBotLoader, sealBotToken } from '../src/modules/telegram/bot.ts';
import { createPacer } from '../src/modules/telegram/pacer.ts';
import { queueTelegramMessages, storeBot } from '../src/modules/telegram/repository.ts';
import { sendDueTelegram } from '../src/modules/telegram/sender.ts';
import { scratchServerUrl } from '../src/testing/server-databases.ts';
import { startTelegramBotApi } from '../src/testing/telegram-bot-api.ts';
import { createServerDatabase } from '../src/testing/test-database.ts';
import { type GoalRow, grouped, printGoals } from './goals.ts';

const PER_SECOND = 30;
const option = process.argv.indexOf('--messages');
const messages = option > 0 ? Number(process.argv[option + 1]) : 30_000;
if (!Number.isSafeInteger(messages) || messages < 1) {
  console.error('--messages takes a whole number of messages');
  process.exit(2);
}

process.env.TEST_DATABASE_URL = scratchServerUrl('bench:telegram');
const scratch = await createServerDatabase();
const api = await startTelegramBotApi();
const floorSeconds = messages / PER_SECOND;
console.log(
  `bench:telegram: ${grouped(messages)} messages, floor ${floorSeconds.toFixed(1)} s at ${PER_SECOND}/s`,
);

const heapMb = () => process.memoryUsage().heapUsed / 1024 / 1024;
let rows: GoalRow[];
try {
  const database = await openDatabase({ databaseUrl: scratch.url, dataDir: '', holder: 'bench:telegram' });
  await database.migrate();
  const { db } = database;
  const key = randomBytes(32);
  await storeBot(db, sealBotToken(key, api.token), api.username, new Date());
  const loaded = await createBotLoader(db, key, api.url)();
  if (!loaded) throw new Error('the bot was not stored');
  for (let start = 0; start < messages; start += 10_000) {
    const count = Math.min(10_000, messages - start);
    await queueTelegramMessages(
      db,
      Array.from({ length: count }, (_, i) => ({
        chatId: 1_000_000 + start + i,
        kind: 'expiry_reminder',
        text: `Reminder: your access ends on 2026-12-05 12:00:00 (UTC+8). Renew: https://example.com/buy`,
        priority: 3,
      })),
      new Date(),
    );
  }
  global.gc?.();
  const heapBefore = heapMb();
  let heapMost = heapBefore;
  let ticks = 0;
  const sampler = setInterval(() => {
    heapMost = Math.max(heapMost, heapMb());
    if (++ticks % 30 === 0) console.log(`  ${grouped(api.sent.length)} sent, heap ${heapMb().toFixed(1)} MB`);
  }, 1000);
  const started = performance.now();
  const result = await sendDueTelegram({
    db,
    api: loaded.bot.api,
    pacer: createPacer(PER_SECOND),
    log: Fastify({ logger: false }).log,
    mayGoOn: () => true,
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  global.gc?.();
  const heapAfter = heapMb();
  const ratio = seconds / floorSeconds;
  await database.close();
  rows = [
    ['sent / queued', `${grouped(result.sent)} / ${grouped(messages)}`, 'all', result.sent === messages],
    [
      'duration / floor',
      `${seconds.toFixed(1)} s / ${floorSeconds.toFixed(1)} s = ${ratio.toFixed(3)}`,
      '1.00–1.10',
      ratio >= 1 && ratio <= 1.1,
    ],
    [
      'busiest second (stand-in)',
      `${api.busiestSecond()}`,
      `≤ ${PER_SECOND}`,
      api.busiestSecond() <= PER_SECOND,
    ],
    [
      'shortest gap to one chat',
      `${Number.isFinite(api.shortestChatGapMs()) ? api.shortestChatGapMs().toFixed(0) : '–'} ms`,
      '≥ 1000 ms',
      api.shortestChatGapMs() >= 1000,
    ],
    [
      'heap peak over start',
      `+${(heapMost - heapBefore).toFixed(1)} MB`,
      '≤ +50 MB',
      heapMost - heapBefore <= 50,
    ],
    [
      'heap kept after the run',
      `+${(heapAfter - heapBefore).toFixed(1)} MB`,
      '≤ +10 MB (the stand-in keeps each message)',
      heapAfter - heapBefore <= 10,
    ],
  ];
} finally {
  await api.close();
  await scratch.drop();
}
if (!printGoals(rows)) process.exitCode = 1;
