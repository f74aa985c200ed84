import { Suspense, useLayoutEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageSpinner } from '../components/page-spinner.tsx';
import { useSession } from '../lib/session.ts';
import { guardRedirect } from './route-guard.ts';

/** The root route: applies the guard before any layout (and its chunk) loads, and scrolls to the top. */
export function AppShell() {
  const location = useLocation();
  const { token } = useSession();
  const redirect = guardRedirect(location.pathname, token !== null);

  // Every navigation, including one to the same path, gets a new key (spec section 2).
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [location.key]);

  if (redirect !== null) return <Navigate to={redirect} replace />;
  return (
    <Suspense fallback={<PageSpinner fullScreen />}>
      <Outlet />
    </Suspense>
  );
}
