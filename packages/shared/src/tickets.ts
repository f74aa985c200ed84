/**
 * Support tickets (PRODUCT.md section 10): the vocabulary the server, the console and the back
 * office share, and the limits that keep one account from flooding the queue.
 */
export const TICKET_CATEGORIES = ['account', 'payment', 'connection', 'other'] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];

export const TICKET_PRIORITIES = ['low', 'medium', 'high'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

/**
 * `open`: waiting for staff (new, or the customer wrote last); `answered`: staff replied;
 * `waiting`: staff replied and asked the customer for something; `closed`: by either side, or on
 * its own after TICKET_AUTO_CLOSE_DAYS without a word from the customer once staff replied.
 */
export const TICKET_STATES = ['open', 'answered', 'waiting', 'closed'] as const;
export type TicketState = (typeof TICKET_STATES)[number];

export const TICKET_SUBJECT_MAX = 120;
export const TICKET_MESSAGE_MAX = 5000;
/** Images on one message, each a PNG, JPEG or WebP of at most TICKET_IMAGE_MAX_BYTES. */
export const TICKET_IMAGES_MAX = 3;
export const TICKET_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const TICKET_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** The stored images of one ticket together (as re-encoded), so that a thread cannot grow without end. */
export const TICKET_ATTACHMENTS_MAX_BYTES = 20 * 1024 * 1024;
/** Tickets an account may have that are not closed. */
export const TICKET_OPEN_MAX = 5;
/** Messages an account may write in an hour, over all its tickets. */
export const TICKET_MESSAGES_PER_HOUR = 20;
/** A ticket that staff answered closes itself after this many days without a word from the customer. */
export const TICKET_AUTO_CLOSE_DAYS = 7;
