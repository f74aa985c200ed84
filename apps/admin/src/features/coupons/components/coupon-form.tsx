import { useQueryClient } from '@tanstack/react-query';
import { Checkbox, Col, DatePicker, Form, Input, InputNumber, Radio, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
// antd's date pickers hold dayjs values.
import dayjs, { type Dayjs } from 'dayjs';
import { COUPON_KINDS, type CouponKind } from '@skyway/shared/coupons';
import { PERIOD_NAMES, type Period } from '@skyway/shared/plans';
import { FormModal } from '../../../components/form-modal.tsx';
import { type Coupon, COUPONS_KEY, createCoupon, updateCoupon } from '../api/coupons.ts';

const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** The connection counts offered on the form; a coupon for none of them applies to any. */
const CONNECTION_CHOICES = Array.from({ length: 20 }, (_, index) => index + 1);

/** The form's values: money in yuan (sent in fen), times as dayjs, empty caps as null. */
interface CouponValues {
  code: string;
  kind: CouponKind;
  /** Percent, or yuan for a fixed amount. */
  value: number;
  min_yuan: number | null;
  periods: Period[];
  connections: number[];
  first_order_only: boolean;
  valid_from: Dayjs | null;
  valid_to: Dayjs | null;
  max_uses: number | null;
  max_uses_per_user: number | null;
}

const fen = (yuan: number | null | undefined) => Math.round((yuan ?? 0) * 100);
const dayOf = (iso: string | null) => (iso ? dayjs(iso) : null);
const isoOf = (day: Dayjs | null | undefined) => (day ? day.toISOString() : null);

const valuesOf = (coupon: Coupon | null): CouponValues => ({
  code: coupon?.code ?? '',
  kind: coupon?.kind ?? 'percent',
  value: coupon ? (coupon.kind === 'fixed' ? coupon.value / 100 : coupon.value) : 10,
  min_yuan: coupon && coupon.min_amount > 0 ? coupon.min_amount / 100 : null,
  periods: coupon?.periods ?? [],
  connections: coupon?.connections ?? [],
  first_order_only: coupon?.first_order_only ?? false,
  valid_from: dayOf(coupon?.valid_from ?? null),
  valid_to: dayOf(coupon?.valid_to ?? null),
  max_uses: coupon?.max_uses ?? null,
  max_uses_per_user: coupon?.max_uses_per_user ?? null,
});

/** The request's terms: money in fen, times in ISO, empty caps null. */
const termsOf = (values: CouponValues) => ({
  kind: values.kind,
  value: values.kind === 'fixed' ? fen(values.value) : values.value,
  min_amount: fen(values.min_yuan),
  periods: values.periods,
  connections: values.connections,
  first_order_only: values.first_order_only,
  valid_from: isoOf(values.valid_from),
  valid_to: isoOf(values.valid_to),
  max_uses: values.max_uses ?? null,
  max_uses_per_user: values.max_uses_per_user ?? null,
});

/** The server's fields that sit under another name on the form. */
const serverField = (field: string) =>
  ({ min_amount: ['min_yuan'] })[field] ?? (field in valuesOf(null) ? [field] : undefined);

/**
 * Makes a coupon or changes its terms: a typed code (or none, for one generated), percent or fixed
 * off, the minimum, the plans and connection counts it is for, first order only, when it is valid
 * and its caps. The code of a coupon made stays.
 */
export function CouponModal(props: { coupon: Coupon | null; onClose: () => void }) {
  const { t } = useTranslation(['coupons', 'common']);
  const client = useQueryClient();
  const [form] = Form.useForm<CouponValues>();
  const kind = Form.useWatch('kind', form) ?? props.coupon?.kind ?? 'percent';
  const { coupon } = props;
  return (
    <FormModal
      open
      title={coupon ? t('editCoupon', { code: coupon.code }) : t('addCoupon')}
      width={720}
      form={form}
      initialValues={valuesOf(coupon)}
      onClose={props.onClose}
      testId="coupon-form"
      serverField={serverField}
      onSubmit={async (values) => {
        try {
          if (coupon) await updateCoupon(coupon.id, termsOf(values));
          else
            await createCoupon({
              ...(values.code.trim() ? { code: values.code.trim() } : {}),
              ...termsOf(values),
            });
        } finally {
          await client.invalidateQueries({ queryKey: COUPONS_KEY });
        }
      }}
    >
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            name="code"
            label={t('code')}
            extra={coupon ? t('codeKept') : t('codeHint')}
            rules={[{ pattern: /^\s*[A-Za-z0-9_-]{3,32}\s*$/, message: t('codeInvalid') }]}
          >
            <Input autoComplete="off" disabled={Boolean(coupon)} placeholder={t('codeGenerated')} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="kind" label={t('kind')}>
            <Radio.Group options={COUPON_KINDS.map((each) => ({ value: each, label: t(`kind_${each}`) }))} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            name="value"
            label={kind === 'percent' ? t('percentOff') : t('amountOff')}
            rules={[{ required: true, message: t('common:required') }]}
          >
            {kind === 'percent' ? (
              <InputNumber min={1} max={100} precision={0} suffix="%" style={{ width: '100%' }} />
            ) : (
              <InputNumber min={0.01} max={100_000} precision={2} prefix="¥" style={{ width: '100%' }} />
            )}
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="min_yuan" label={t('minAmount')} extra={t('minAmountHint')}>
            <InputNumber min={0} max={100_000} precision={2} prefix="¥" style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="periods" label={t('periods')} extra={t('periodsHint')}>
        <Checkbox.Group
          options={PERIOD_NAMES.map((period) => ({ value: period, label: t(`period_${period}`) }))}
        />
      </Form.Item>
      <Form.Item name="connections" label={t('connections')} extra={t('connectionsHint')}>
        <Select
          mode="multiple"
          allowClear
          placeholder={t('anyConnections')}
          options={CONNECTION_CHOICES.map((count) => ({ value: count, label: String(count) }))}
        />
      </Form.Item>
      <Form.Item name="first_order_only" valuePropName="checked">
        <Checkbox>{t('firstOrderOnly')}</Checkbox>
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="valid_from" label={t('validFrom')}>
            <DatePicker showTime format={TIME_FORMAT} placeholder={t('now')} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="valid_to"
            label={t('validTo')}
            dependencies={['valid_from']}
            rules={[
              ({ getFieldValue }) => ({
                validator: async (_, end: Dayjs | null) => {
                  const start = getFieldValue('valid_from') as Dayjs | null;
                  if (start && end && !end.isAfter(start)) throw new Error(t('endAfterStart'));
                },
              }),
            ]}
          >
            <DatePicker showTime format={TIME_FORMAT} placeholder={t('noEnd')} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="max_uses" label={t('maxUses')} extra={t('maxUsesHint')}>
            <InputNumber
              min={1}
              max={1_000_000}
              precision={0}
              placeholder={t('noCap')}
              style={{ width: '100%' }}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="max_uses_per_user" label={t('maxUsesPerUser')}>
            <InputNumber
              min={1}
              max={1000}
              precision={0}
              placeholder={t('noCap')}
              style={{ width: '100%' }}
            />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
