import type { Page } from '@playwright/test';
import { formatDateTime } from '@skyway/shared/dates';
import type { Language } from '@skyway/shared/languages';
import { formatYuan } from '@skyway/shared/money';
import type { PlanList } from '@skyway/shared/plans';
import {
  callBody,
  expect,
  expectNoAccessibilityViolations,
  freshAccount,
  saveScreenshot,
  signInAs,
  test,
  text,
  toast,
  useLanguage,
  userInfo,
} from './support.ts';

// The buyer's journeys as a Chinese-speaking and an English-speaking customer on a phone and a
// desktop: each journey in each language at each width, every text read from the site's own
// translations, and a screenshot of each console page left for review.
const LANGUAGES: Language[] = ['zh', 'en'];
const WIDTHS = [375, 1280];

/** What the server's sandbox checkout calls its Pay button for WeChat Pay (modules/payments). */
const SANDBOX_PAY_WECHAT: Record<Language, string> = {
  zh: '使用微信支付（测试）',
  en: 'Pay with WeChat Pay (test)',
  tw: '使用微信支付（測試）',
};

/** One day, as each language counts it (the trial and invitation defaults are 1440 minutes). */
const ONE_DAY: Record<Language, string> = { zh: '1 天', en: '1 day', tw: '1 天' };

/** Nothing on the page is wider than the screen: no sideways swipe to reach a status or an amount. */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

/** The side panel's subscription status; on a phone it lives in the drawer behind the menu button. */
async function openStatus(page: Page, language: Language, width: number) {
  if (width < 768) await page.getByRole('button', { name: text(language, 'common', 'nav.openMenu') }).click();
  const status = page.getByRole('region', { name: text(language, 'common', 'nav.subscription') });
  await expect(status).toBeVisible();
  return status;
}

for (const language of LANGUAGES) {
  for (const width of WIDTHS) {
    test.describe(`${language} at ${width} px`, () => {
      test.use({ viewport: { width, height: width < 768 ? 812 : 900 } });
      const t = (namespace: string, key: string, values?: Record<string, string>) =>
        text(language, namespace, key, values);

      test.beforeEach(async ({ page }) => {
        await useLanguage(page, language);
      });

      test('buy two connections with WeChat Pay: the method is chosen, paid with and shown on the order', async ({
        page,
        request,
      }) => {
        test.setTimeout(60_000);
        await signInAs(page, await freshAccount(request));
        const plans = (
          (await (await request.post('/web/plan/list', { data: callBody() })).json()) as { data: PlanList }
        ).data;
        const month = plans.plans.find((plan) => plan.period === 'month');
        const total = formatYuan((month?.unit_price ?? 0) * 2);
        await page.goto('/buy');

        // The three methods the sandbox offers, each a choice of its own; WeChat Pay chosen.
        // (The journeys' gateway serves Alipay and WeChat Pay too: the sandbox stays the first choice.)
        const methods = page.getByRole('radiogroup', { name: t('buy', 'payment.title') });
        for (const method of ['alipay', 'wechat_pay', 'card']) {
          await expect(
            methods.getByRole('radio', { name: new RegExp(t('common', `payMethods.${method}`)) }),
          ).toBeEnabled();
        }
        await page.getByRole('radio', { name: new RegExp(t('buy', 'plans.names.month')) }).check();
        await methods.getByRole('radio', { name: new RegExp(t('common', 'payMethods.wechat_pay')) }).check();
        const connections = page.getByLabel(t('buy', 'connections.label'));
        await connections.fill('2');
        await connections.blur();

        // One Buy button; on a phone it sits in a bar at the bottom of the screen with the total.
        const buy = page.getByRole('button', { name: t('buy', 'summary.buy') });
        await expect(buy).toHaveCount(1);
        if (width < 768) {
          const bar = page.getByTestId('buy-bar');
          await expect(bar).toContainText(total);
          const box = await bar.boundingBox();
          expect(box && box.y + box.height).toBeCloseTo(812, 0);
        } else {
          await expect(page.getByTestId('buy-total')).toHaveText(total);
        }
        await expectNoSidewaysScroll(page);
        await expectNoAccessibilityViolations(page);
        await saveScreenshot(page, 'buy', language, width);

        // The sandbox checkout simulates the method chosen.
        await buy.click();
        await expect(page).toHaveURL(/\/pay\/sandbox\//);
        await expect(page.getByRole('main')).toContainText(t('common', 'payMethods.wechat_pay'));
        await page.getByRole('button', { name: SANDBOX_PAY_WECHAT[language] }).click();

        const dialog = page.getByRole('dialog', { name: t('buy', 'inquiry.title') });
        await expect(dialog.getByText(t('buy', 'inquiry.paid'))).toBeVisible();
        await expect(dialog).toContainText(
          t('buy', 'inquiry.payMethod') + t('common', 'payMethods.wechat_pay'),
        );
        await dialog.getByRole('button', { name: t('buy', 'inquiry.done') }).click();
        await expect(dialog).toBeHidden();

        // Back on /buy the field keeps the two connections just bought: buying again extends.
        await expect(connections).toHaveValue('2');
        await expect(page.getByRole('region', { name: t('buy', 'preview.title') })).toContainText(
          t('buy', 'preview.effects.extend'),
        );
        // Its "expiry from → to" fits the screen, each date whole.
        await expectNoSidewaysScroll(page);

        // The order, status and amount first on a phone, paid with WeChat Pay.
        await page.goto('/order');
        const order = width < 768 ? page.locator('.order-card').first() : page.getByRole('row').nth(1);
        await expect(order).toContainText(t('orders', 'status.paid'));
        await expect(order).toContainText(total);
        await expect(order).toContainText(t('common', 'payMethods.wechat_pay'));
        await expectNoSidewaysScroll(page);
        await expectNoAccessibilityViolations(page);
        await saveScreenshot(page, 'order', language, width);
      });

      test('no orders yet: the orders page leads to the plans', async ({ page, request }) => {
        await signInAs(page, await freshAccount(request));
        await page.goto('/order');
        await expect(page.getByText(t('orders', 'empty.text'))).toBeVisible();
        await expectNoAccessibilityViolations(page);
        await page.getByRole('link', { name: t('orders', 'empty.action') }).click();
        await expect(page).toHaveURL('/buy');
      });

      test('the trial: offered while unclaimed, then claimed with its end, never a dead button', async ({
        page,
        request,
      }) => {
        const buyer = await freshAccount(request);
        await signInAs(page, buyer);
        await page.goto('/buy');
        let status = await openStatus(page, language, width);
        await expect(status).toContainText(t('common', 'expiry.none'));
        await status.getByRole('button', { name: t('common', 'actions.claimTrial') }).click();

        const dialog = page.getByRole('dialog', { name: t('trial', 'title') });
        await expect(dialog).toContainText(t('trial', 'body', { duration: ONE_DAY[language] }));
        await dialog.getByRole('button', { name: t('trial', 'claimNow') }).click();
        await expect(toast(page, t('trial', 'claimed', { duration: ONE_DAY[language] }))).toBeVisible();
        await expect(dialog).toBeHidden();

        const { trial_end: trialEnd } = await userInfo(request, buyer.token);
        expect(trialEnd).toBeGreaterThan(Date.now() / 1000);
        await page.reload();
        status = await openStatus(page, language, width);
        await expect(status).toContainText(t('trial', 'state.claimed'));
        await expect(status).toContainText(t('trial', 'state.endsAt', { date: formatDateTime(trialEnd) }));
        await expect(status.getByRole('button', { name: t('common', 'actions.claimTrial') })).toHaveCount(0);
        await expectNoSidewaysScroll(page);
        await expectNoAccessibilityViolations(page);
        await saveScreenshot(page, 'trial-claimed', language, width);
      });

      test('the trial closed by the operator: no button, the reason, and the way to the plans', async ({
        page,
        request,
        operatorSettings,
      }) => {
        await operatorSettings.set('open_trial', '0');
        await signInAs(page, await freshAccount(request));
        await page.goto('/order');
        const status = await openStatus(page, language, width);
        await expect(status).toContainText(t('trial', 'state.closed'));
        await expect(status.getByRole('button', { name: t('common', 'actions.claimTrial') })).toHaveCount(0);
        await status.getByRole('link', { name: t('common', 'actions.seePlans') }).click();
        await expect(page).toHaveURL('/buy');
      });

      test('invitations: what each one earns, the link from the empty list, then a friend listed', async ({
        page,
        context,
        request,
        baseURL,
      }) => {
        const inviter = await freshAccount(request);
        await signInAs(page, inviter);
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
        await page.goto('/invite');
        await expect(page.getByRole('main')).toContainText(
          t('invitations', 'share.earn', { duration: ONE_DAY[language] }),
        );
        await expect(page.getByText(t('invitations', 'empty.text'))).toBeVisible();
        await page.getByRole('button', { name: t('invitations', 'empty.copy') }).click();
        await expect(toast(page, t('common', 'copy.done'))).toBeVisible();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
          /\/login\?formType=regist&invite_code=[^&]+$/,
        );

        const friend = await freshAccount(request, inviter);
        await page.reload();
        const invitation =
          width < 768
            ? page.locator('.invitation-card').first()
            : page.getByRole('row').filter({ hasText: /\*\*\*@example\.com/ });
        await expect(invitation).toContainText(t('invitations', 'status.unclaimed'));
        await expect(invitation).toContainText(ONE_DAY[language]);
        await expect(invitation).not.toContainText(friend.account);
        await expect(page.getByRole('main')).not.toContainText('1440');
        await expectNoSidewaysScroll(page);
        await expectNoAccessibilityViolations(page);
        await saveScreenshot(page, 'invite', language, width);
      });
    });
  }
}
