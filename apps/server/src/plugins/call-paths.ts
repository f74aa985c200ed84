/** Calls answer JSON in the envelope: the customer calls (`/web/`) and the back office's API. */
export const isCallPath = (url: string) => url.startsWith('/web/') || url.startsWith('/admin/api/');
