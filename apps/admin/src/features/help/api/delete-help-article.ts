import { api } from '../../../lib/api-client.ts';

/** Deletes an article for good (the audit log keeps what it said). */
export const deleteHelpArticle = (id: string) => api('DELETE', `/help/articles/${id}`);
