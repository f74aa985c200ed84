import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  index,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Members of the back office's staff: not customers, with their own sign-in and sessions. */
export const staff = pgTable(
  'staff',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    role: text('role', { enum: ['owner', 'admin', 'support', 'finance', 'viewer'] }).notNull(),
    language: text('language').notNull().default('zh'),
    // Both null until the member finishes the set-up link.
    passwordHash: text('password_hash'),
    // Base32 TOTP secret. Written when the set-up link is first opened, confirmed by a code at set-up.
    totpSecret: text('totp_secret'),
    // The last TOTP time step accepted: a code is good once, even inside its 30 s window.
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    setUpAt: timestamp('set_up_at', { withTimezone: true }),
    invitedBy: uuid('invited_by').references((): AnyPgColumn => staff.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('staff_email_key').on(sql`lower(${table.email})`)],
);

/** One-time set-up links (24 h): set the password and the TOTP secret. SHA-256 of the token. */
export const staffSetupTokens = pgTable(
  'staff_setup_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('staff_setup_tokens_staff_id_idx').on(table.staffId)],
);

/** One-time recovery codes, each usable once in place of a TOTP code. SHA-256 of the code. */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    /**
     * The code's random bits: 120 for every code written now; 50 for the codes given before they
     * became long (a hash does not tell them apart), which the back office asks their member to replace.
     */
    bits: smallint('bits').notNull().default(50),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('staff_recovery_codes_key').on(table.staffId, table.codeHash)],
);

/**
 * Staff sessions, in a cookie. `second_factor`: the password was right and the TOTP step is due
 * (a few minutes); `signed_in`: both factors passed.
 */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    stage: text('stage', { enum: ['second_factor', 'signed_in'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (table) => [index('staff_sessions_staff_id_idx').on(table.staffId)],
);

export type StaffRow = typeof staff.$inferSelect;
export type StaffSessionRow = typeof staffSessions.$inferSelect;
