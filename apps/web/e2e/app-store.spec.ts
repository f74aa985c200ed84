import { formatDateTime } from '@skyway/shared/dates';
import { E2E_APP_STORE } from '../../server/src/testing/journey-fixtures.ts';
import {
  expect,
  expectNoAccessibilityViolations,
  freshAccount,
  openAccountDialog,
  signInAs,
  subscribeInApp,
  test,
  userInfo,
} from './support.ts';

const DAY = 86_400;

test('an app-store subscriber sees auto-renew, the renewal date and how to cancel, on /buy and in User info', async ({
  page,
  request,
}) => {
  const subscriber = await freshAccount(request);
  const expires = Math.floor(Date.now() / 1000) + 31 * DAY;
  await subscribeInApp(request, subscriber, expires);
  const info = await userInfo(request, subscriber.token);
  expect(info).toMatchObject({
    subscribe_type: 3,
    auto_renew: true,
    connections: E2E_APP_STORE.connections,
    expire_user: expires,
    app_store_expire: expires,
  });
  const date = formatDateTime(info.app_store_expire);
  const renewal = `Auto-renew: on — renews on ${date}`;
  const cancel = `To cancel, turn off auto-renew in your device's subscription settings (App Store) at least 24 hours before ${date}.`;

  await signInAs(page, subscriber);
  await page.goto('/buy');
  const status = page.getByRole('region', { name: 'Subscribed through the app store' });
  await expect(status).toContainText(renewal);
  await expect(status).toContainText(cancel);
  await expect(status).toContainText(
    `its time is added after your current app-store period, which ends on ${date}`,
  );
  // Card purchases stay open to a subscriber.
  await expect(page.getByRole('button', { name: 'Buy now' })).toBeEnabled();
  await expectNoAccessibilityViolations(page, '.buy-page__app-store');

  const dialog = await openAccountDialog(page, 'User info');
  const inDialog = dialog.getByRole('region', { name: 'Subscribed through the app store' });
  await expect(inDialog).toContainText(renewal);
  await expect(inDialog).toContainText(cancel);
  await expect(dialog.locator('.subscription-tag')).toHaveText('App Store');
  await expectNoAccessibilityViolations(page, '.ant-modal');
});
