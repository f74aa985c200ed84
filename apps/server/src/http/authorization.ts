/** The token of the `authorization` header: bare, as the spec sends it, or as `Bearer <token>`. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  const value = header?.trim().replace(/^bearer\s+/i, '');
  return value ? value : undefined;
}
