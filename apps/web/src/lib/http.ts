import axios from 'axios';

/** Spec section 9. */
export const REQUEST_TIMEOUT_MS = 600_000;

// Loaded by the api client on its first call rather than in the entry: axios is a fifth of the
// public pages' first download, and the first call does not block the first paint.
export const http = axios.create({
  timeout: REQUEST_TIMEOUT_MS,
  headers: { 'Content-Type': 'application/json' },
  // Every envelope, whatever its HTTP status, is read by the api client.
  validateStatus: () => true,
});
