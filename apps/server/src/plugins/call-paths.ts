/** Calls answer JSON in the envelope: the customer calls (`/web/`), the back office's API and the node API. */
export const isCallPath = (url: string) =>
  url.startsWith('/web/') || url.startsWith('/admin/api/') || url.startsWith('/node/');
