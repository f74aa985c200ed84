import type { NoFields } from '@skyway/shared/envelope';
import { callApi } from '../../../lib/api-client.ts';
import { reloadPage } from '../../../lib/page.ts';
import { clearSession } from '../../../lib/session.ts';

/**
 * Spec section 4: success or failure, the session ends here; the reload lets the guard send the
 * visitor to /login. Silent, because the reload would cut any toast short.
 */
export async function logout(): Promise<void> {
  try {
    await callApi<NoFields>('/web/login/out', {}, { silent: true });
  } catch {
    // A failing logout call signs out as well.
  }
  clearSession();
  reloadPage();
}
