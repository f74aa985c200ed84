/**
 * Spec section 2: the only paths a signed-out visitor may open. `/promotionCount` is listed by the
 * spec but has no route, so it ends at /404 and from there at /login like any other unknown path.
 * `/` and `/website` are open too because they only redirect to /download. The help center
 * (`/help`, `/help/ARTICLE`) is open as well (PRODUCT.md section 10).
 *
 * `/404` is deliberately absent: a signed-out visitor who reaches it (directly or through an unknown
 * path) is sent to /login, since the not-found page lives inside the console layout.
 */
const SIGNED_OUT_PATHS = new Set(
  ['/', '/website', '/login', '/download', '/privacy', '/service', '/use', '/promotionCount'].map((path) =>
    path.toLowerCase(),
  ),
);

/** The help center is public: its list and every article. */
const isHelpPath = (path: string) => path === '/help' || path.startsWith('/help/');

/** React Router matches paths case-insensitively and ignores a trailing slash; so must the guard. */
export function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return (trimmed || '/').toLowerCase();
}

/** Where the guard sends a visitor of `pathname`, or null to let them stay. */
export function guardRedirect(pathname: string, signedIn: boolean): string | null {
  const path = normalizePath(pathname);
  if (signedIn) return path === '/login' ? '/' : null;
  return SIGNED_OUT_PATHS.has(path) || isHelpPath(path) ? null : '/login';
}
