export type LegalDocument = 'privacy' | 'service' | 'use';

/** Each document's text is a namespace of its own, so that a page loads only the one it shows. */
export const legalNamespace = (document: LegalDocument) => `legal-${document}` as const;
