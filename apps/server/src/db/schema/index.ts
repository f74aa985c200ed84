export * from './users.ts';
export * from './sessions.ts';
export * from './email-codes.ts';
export * from './mail-outbox.ts';
export * from './job-runs.ts';
export * from './invitations.ts';
export * from './orders.ts';
export * from './app-store.ts';
