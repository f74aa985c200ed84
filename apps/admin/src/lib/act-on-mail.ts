import { api } from './api-client.ts';

/**
 * Sends a failed message again (`retry`) or stops a waiting one (`cancel`). Shared: the mail log
 * and the sales attention queue both act on mail, and features never import each other.
 */
export const actOnMail = (id: string, action: 'retry' | 'cancel') => api('POST', `/mail/${id}/${action}`);
