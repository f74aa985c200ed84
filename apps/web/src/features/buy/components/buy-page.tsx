import { useState } from 'react';
import { ShoppingCartOutlined } from '@ant-design/icons';
import { Button, Card, Col, InputNumber, Radio, Result, Row, Skeleton, Typography } from 'antd';
import { formatYuan, gatewayFee, orderAmount } from '@skyway/shared/money';
import type { CreatedOrder, PayOption, Period, Plan } from '@skyway/shared/plans';
import { SUBSCRIBE_TYPES } from '@skyway/shared/user';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AppStoreStatus } from '../../../components/app-store-status.tsx';
import { openPage } from '../../../lib/page.ts';
import { usePageMeta } from '../../../lib/page-meta.ts';
import { useSession } from '../../../lib/session.ts';
import { MOBILE_QUERY, useMediaQuery } from '../../../lib/use-media-query.ts';
import { useNowSeconds } from '../../../lib/use-now-seconds.ts';
import { useUserInfo } from '../../../lib/user-info.ts';
import { useCouponCheck } from '../api/check-coupon.ts';
import { useCreateOrder } from '../api/create-order.ts';
import { usePlans } from '../api/plans.ts';
import { defaultConnections, entitlementOf } from '../entitlement.ts';
import { BuyBar } from './buy-bar.tsx';
import { CouponField } from './coupon-field.tsx';
import { optionKey, PayMethodCard } from './pay-method-card.tsx';
import { PaymentInquiryDialog } from './payment-inquiry-dialog.tsx';
import { PurchasePreview } from './purchase-preview.tsx';
import { ScanToPayDialog } from './scan-to-pay-dialog.tsx';
import './buy-page.css';

/** Where a checkout sends the browser back to: `/buy?order_id=…` opens the payment inquiry. */
export const ORDER_ID_PARAM = 'order_id';

const DEFAULT_PERIOD: Period = 'month';

/** Whether access is still active only matters to the starting connections: a minute is precise enough. */
const ACCESS_CHECK_MS = 60_000;

/** Buy subscription: plan, connections, the effect on the current access, then the checkout. */
export function BuyPage() {
  // The app-store namespace is asked for with the page's own, not when a subscriber's state shows.
  const { t } = useTranslation(['buy', 'app-store']);
  usePageMeta(t('title'));
  const [searchParams, setSearchParams] = useSearchParams();
  const orderId = searchParams.get(ORDER_ID_PARAM);
  const { user } = useSession();
  const plans = usePlans();
  const info = useUserInfo();
  const create = useCreateOrder();
  const phone = useMediaQuery(MOBILE_QUERY);
  const now = useNowSeconds(ACCESS_CHECK_MS);
  const [period, setPeriod] = useState<Period>(DEFAULT_PERIOD);
  // Null until the customer sets the field: until then it follows the fresh user info, which a
  // payment made on this page (the inquiry refreshes it) or a reload after the checkout changes.
  const [typedConnections, setTypedConnections] = useState<number | null>(null);
  const [chosenOption, setChosenOption] = useState<PayOption | null>(null);
  const [couponCode, setCouponCode] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  // A gateway's checkout on a computer: its QR code for the buyer's phone.
  const [scanning, setScanning] = useState<{ order: CreatedOrder; option: PayOption } | null>(null);

  const maxConnections = Math.max(plans.data?.max_connections ?? 1, 1);
  const connections = typedConnections ?? defaultConnections(info.data, now);
  const count = Math.min(Math.max(connections, 1), maxConnections);
  const plan: Plan | undefined =
    plans.data?.plans.find((item) => item.period === period) ?? plans.data?.plans[0];
  const payOptions = plans.data?.pay_options ?? [];
  // The first way to pay until the buyer chooses; a choice the plans no longer offer falls back to it.
  const payOption =
    payOptions.find((option) => chosenOption && optionKey(option) === optionKey(chosenOption)) ??
    payOptions[0];
  const price = plan ? orderAmount(plan.unit_price, count) : 0;
  // The coupon applied, previewed by the server for this plan and these connections (asked again
  // when they change); refused, it takes nothing off and its reason shows beside the field.
  const couponCheck = useCouponCheck(couponCode, plan?.period ?? period, count);
  const coupon = couponCode && couponCheck.data?.price === price ? couponCheck.data : undefined;
  const couponRefusal = couponCode && couponCheck.isError ? couponCheck.error.message : null;
  // The same arithmetic as the server's: the coupon first, the fee on what is left.
  const discounted = price - (coupon?.discount ?? 0);
  const fee = payOption ? gatewayFee(discounted, payOption.fee_bps) : 0;
  const total = plan ? formatYuan(discounted + fee) : null;

  async function buy() {
    if (!plan || !payOption) return;
    try {
      const order = await create.mutateAsync({
        period: plan.period,
        connections: count,
        pay_method: payOption.pay_method,
        ...(payOption.gateway_id ? { gateway_id: payOption.gateway_id } : {}),
        ...(coupon ? { coupon_code: coupon.code } : {}),
      });
      // Nothing to pay (a 100 % coupon): the order is paid already; the inquiry shows it so.
      if (order.paid || !order.checkout_url) {
        openInquiry(order.order_id);
        return;
      }
      if (payOption.gateway_id && !phone) {
        setScanning({ order, option: payOption });
        return;
      }
      setLeaving(true);
      // A full page load: the checkout is a page of the provider or gateway (on a phone, the one that
      // opens its app), or the server's own sandbox.
      openPage(order.checkout_url);
    } catch {
      // The api client has shown the server's message.
    }
  }

  function openInquiry(id: string) {
    setScanning(null);
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(ORDER_ID_PARAM, id);
        return next;
      },
      { replace: true },
    );
  }

  function closeInquiry() {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(ORDER_ID_PARAM);
        return next;
      },
      { replace: true },
    );
  }

  const inquiry = orderId ? (
    <PaymentInquiryDialog key={orderId} orderId={orderId} onClose={closeInquiry} />
  ) : scanning ? (
    <ScanToPayDialog
      key={scanning.order.order_id}
      order={scanning.order}
      payMethod={scanning.option.pay_method}
      onPaid={openInquiry}
      onClose={() => setScanning(null)}
    />
  ) : null;

  if (plans.isError) {
    return (
      <Card>
        <Result
          status="warning"
          title={t('plans.loadFailed')}
          extra={
            <Button onClick={() => void plans.refetch()} loading={plans.isFetching}>
              {t('plans.retry')}
            </Button>
          }
        />
        {inquiry}
      </Card>
    );
  }

  // A subscriber through the app store may still buy by card; the card time follows the store's period.
  const appStore = info.data?.subscribe_type === SUBSCRIBE_TYPES.appStore ? info.data : null;

  // One Buy button at a time: in the summary on wide screens, in the bottom bar on phones.
  const buyButton = (
    <Button
      type="primary"
      size="large"
      block={!phone}
      icon={<ShoppingCartOutlined />}
      disabled={!plan || !payOption}
      loading={create.isPending || leaving}
      onClick={() => void buy()}
    >
      {t('summary.buy')}
    </Button>
  );

  return (
    <Row gutter={[16, 16]} className={phone ? 'buy-page buy-page--with-bar' : 'buy-page'}>
      {appStore && (
        <Col span={24}>
          <Card className="buy-page__app-store">
            <AppStoreStatus
              expireAt={appStore.app_store_expire}
              autoRenew={appStore.auto_renew}
              headingLevel="h2"
              cardNote
            />
          </Card>
        </Col>
      )}
      <Col xs={24} lg={15}>
        <div className="buy-page__steps">
          <Card title={<h2 id="buy-plans-title">{t('plans.title')}</h2>} loading={plans.isPending}>
            <Radio.Group
              className="plan-cards"
              aria-labelledby="buy-plans-title"
              value={plan?.period}
              onChange={(event) => setPeriod(event.target.value as Period)}
            >
              {plans.data?.plans.map((item) => (
                <Radio key={item.period} value={item.period} className="plan-card">
                  <span className="plan-card__name">{t(`plans.names.${item.period}`)}</span>
                  <span className="plan-card__duration">
                    {t('plans.duration', { months: item.months, days: item.days })}
                  </span>
                  <span className="plan-card__price">{formatYuan(item.unit_price)}</span>
                  <span className="plan-card__unit">{t('plans.perConnection')}</span>
                </Radio>
              ))}
            </Radio.Group>
          </Card>
          <Card title={<h2>{t('connections.title')}</h2>}>
            <label htmlFor="buy-connections" className="buy-field__label">
              {t('connections.label')}
            </label>
            <InputNumber
              id="buy-connections"
              mode="spinner"
              min={1}
              max={maxConnections}
              precision={0}
              value={count}
              // The starting value waits for the user info, so that typing is never overwritten.
              disabled={plans.isPending || info.isPending}
              onChange={(value) => {
                if (typeof value === 'number') setTypedConnections(value);
              }}
              aria-describedby="buy-connections-hint"
              className="buy-field__input"
            />
            <Typography.Paragraph type="secondary" id="buy-connections-hint" className="buy-field__hint">
              {t('connections.hint', { max: maxConnections })}
            </Typography.Paragraph>
          </Card>
          <Card title={<h2>{t('coupon.title')}</h2>}>
            <CouponField
              applied={couponCode}
              check={coupon}
              refusal={couponRefusal}
              checking={couponCheck.isFetching}
              onApply={setCouponCode}
              onRemove={() => setCouponCode(null)}
            />
          </Card>
          <PayMethodCard
            options={payOptions}
            value={payOption}
            onChange={setChosenOption}
            loading={plans.isPending}
          />
        </div>
      </Col>
      <Col xs={24} lg={9}>
        <Card title={<h2>{t('summary.title')}</h2>} className="buy-summary" loading={plans.isPending}>
          {plan && (
            <>
              <dl className="buy-summary__facts">
                <div>
                  <dt>{t('summary.plan')}</dt>
                  <dd>{t(`plans.names.${plan.period}`)}</dd>
                </div>
                <div>
                  <dt>{t('summary.unitPrice')}</dt>
                  <dd>{formatYuan(plan.unit_price)}</dd>
                </div>
                <div>
                  <dt>{t('summary.connections')}</dt>
                  <dd>{count}</dd>
                </div>
                {coupon && (
                  <>
                    <div>
                      <dt>{t('summary.price')}</dt>
                      <dd data-testid="buy-price">{formatYuan(price)}</dd>
                    </div>
                    <div>
                      <dt>{t('summary.discount', { code: coupon.code })}</dt>
                      <dd data-testid="buy-discount">
                        {t('summary.discountAmount', { amount: formatYuan(coupon.discount) })}
                      </dd>
                    </div>
                  </>
                )}
                {fee > 0 && (
                  <div>
                    <dt>{t('summary.fee')}</dt>
                    <dd data-testid="buy-fee">{t('summary.feeAmount', { amount: formatYuan(fee) })}</dd>
                  </div>
                )}
                <div className="buy-summary__total">
                  <dt>{t('summary.total')}</dt>
                  <dd data-testid="buy-total">{total}</dd>
                </div>
              </dl>
              {info.data ? (
                <PurchasePreview
                  entitlement={entitlementOf(user, info.data)}
                  days={plan.days}
                  connections={count}
                />
              ) : (
                <Skeleton active paragraph={{ rows: 2 }} title={false} />
              )}
            </>
          )}
          {!phone && buyButton}
          <Typography.Paragraph type="secondary" className="buy-summary__note">
            {t('summary.note')}
          </Typography.Paragraph>
        </Card>
      </Col>
      {phone && <BuyBar total={total}>{buyButton}</BuyBar>}
      {inquiry}
    </Row>
  );
}
