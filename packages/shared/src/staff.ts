/**
 * Staff of the back office (PRODUCT.md section 5): their roles and the one permission matrix that
 * the server enforces on every route and the console reads to show only what a role may use.
 */
export const STAFF_ROLES = ['owner', 'admin', 'support', 'finance', 'viewer'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Each permission with the roles that hold it. */
export const PERMISSIONS = {
  /** The dashboard's figures (revenue, orders, accounts, trials, subscribers, attention). */
  'dashboard.view': ['owner', 'admin', 'support', 'finance', 'viewer'],
  /** The staff list. */
  'staff.view': ['owner', 'admin'],
  /** Invite staff (an admin invites only the roles below admin). */
  'staff.invite': ['owner', 'admin'],
  /** Change a member's role, disable or enable them (an admin only for the roles below admin). */
  'staff.manage': ['owner', 'admin'],
  /** Customers' accounts: the search and an account's whole picture. */
  'users.view': ['owner', 'admin', 'support', 'finance', 'viewer'],
  /** Add time to an account or take it back, with a reason. */
  'users.adjust_time': ['owner', 'admin', 'support'],
  /** Sign an account out everywhere. */
  'users.end_sessions': ['owner', 'admin', 'support'],
  /** Disable an account or enable it again, with a reason. */
  'users.disable': ['owner', 'admin', 'support'],
  /** The operator's settings and the plans' prices. */
  'settings.view': ['owner', 'admin', 'support', 'finance', 'viewer'],
  /** Change the settings (trial, invitation rewards, connections, time to pay). */
  'settings.edit': ['owner', 'admin'],
  /** Change a plan's price. */
  'plans.edit': ['owner', 'admin', 'finance'],
  /** Orders, payments, refunds and the attention queue. */
  'orders.view': ['owner', 'admin', 'support', 'finance', 'viewer'],
  /** Give a payment back through its provider, taking the order's time back or keeping it. */
  'payments.refund': ['owner', 'admin', 'finance'],
  /** Close an item of the attention queue: a payment reconciled by hand, a provider's notice. */
  'attention.resolve': ['owner', 'admin', 'finance'],
  /** The proxy nodes and their inbounds. */
  'nodes.view': ['owner', 'admin', 'support', 'finance', 'viewer'],
  /** Add, change and remove nodes and inbounds. */
  'nodes.edit': ['owner', 'admin'],
  /** The mail outbox: what was sent, what failed. */
  'mail.view': ['owner', 'admin', 'support'],
  /** Send a message that was given up once more. */
  'mail.retry': ['owner', 'admin', 'support'],
  /** Stop a message that is still waiting from going out. */
  'mail.cancel': ['owner', 'admin', 'support'],
  /** The notices to customers, in every state. */
  'notices.view': ['owner', 'admin', 'support', 'finance', 'viewer'],
  /** Write, publish, take down and delete notices. */
  'notices.edit': ['owner', 'admin', 'support'],
  /** The help center's articles, published or not. */
  'help.view': ['owner', 'admin', 'support', 'finance', 'viewer'],
  /** Write, order, publish and delete help articles. */
  'help.edit': ['owner', 'admin', 'support'],
  /** Support tickets: the queue, each thread with its internal notes, the support figures. */
  'tickets.view': ['owner', 'admin', 'support', 'finance', 'viewer'],
  /** Reply to tickets, write internal notes, assign and close them, and keep the saved answers. */
  'tickets.reply': ['owner', 'admin', 'support'],
  /** The payment gateways: add, change, turn on or off, test their keys. */
  'gateways.edit': ['owner', 'finance'],
  /** The Telegram bot: set its token, test it. */
  'telegram.edit': ['owner', 'admin'],
  /** Coupons: list, create, change, pause, resume and end them. */
  'coupons.edit': ['owner', 'admin', 'finance'],
  /** Redeem codes: generate batches (their CSV once), see their uses, revoke a batch or a code. */
  'redeem.edit': ['owner', 'admin', 'finance'],
  /** The scheduled jobs and their latest runs. */
  'jobs.view': ['owner', 'admin'],
  /** The audit log. */
  'audit.view': ['owner', 'admin'],
} as const satisfies Record<string, readonly StaffRole[]>;

export type Permission = keyof typeof PERMISSIONS;

export const ALL_PERMISSIONS = Object.keys(PERMISSIONS) as Permission[];

export function can(role: StaffRole, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly StaffRole[]).includes(role);
}

/** The roles a member may invite, or give to another: an owner any, an admin those below admin. */
export function assignableRoles(role: StaffRole): readonly StaffRole[] {
  if (role === 'owner') return STAFF_ROLES;
  if (role === 'admin') return ['support', 'finance', 'viewer'];
  return [];
}

/** TOTP: 6 digits every 30 s (RFC 6238, what every authenticator app shows). */
export const TOTP_DIGITS = 6;
/** One-time recovery codes given at set-up, each usable once in place of a TOTP code. */
export const RECOVERY_CODE_COUNT = 10;
/** A staff session ends 12 hours after sign-in, or after 30 minutes without a request. */
export const STAFF_SESSION_HOURS = 12;
export const STAFF_SESSION_IDLE_MINUTES = 30;
/** The header that carries the session's CSRF token on every change. */
export const CSRF_HEADER = 'x-csrf-token';
