import { Form, Input, InputNumber, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal } from './form-modal.tsx';

interface Values {
  reason: string;
  days?: number;
  hours?: number;
  choice?: string;
}

/** A choice the change needs besides its reason (a refund: take the time back or keep it). */
export interface Choice {
  label: string;
  options: { value: string; label: string }[];
  initial: string;
}

/**
 * A change that needs a reason (kept in the audit log), confirmed in a dialog; with `time`, it also
 * asks for days and hours (negative takes time back), with `choice`, one of its options.
 */
export function ReasonModal(props: {
  open: boolean;
  title: string;
  hint?: string;
  time?: boolean;
  choice?: Choice;
  onClose: () => void;
  onSubmit: (values: Values) => Promise<unknown>;
}) {
  const { t } = useTranslation('common');
  const [form] = Form.useForm<Values>();
  return (
    <FormModal
      open={props.open}
      title={props.title}
      okText={t('confirm')}
      form={form}
      initialValues={{ days: 0, hours: 0, choice: props.choice?.initial }}
      onClose={props.onClose}
      onSubmit={props.onSubmit}
    >
      {props.hint && <Typography.Paragraph type="secondary">{props.hint}</Typography.Paragraph>}
      {props.choice && (
        <Form.Item name="choice" label={props.choice.label}>
          <Radio.Group options={props.choice.options} />
        </Form.Item>
      )}
      {props.time && (
        <>
          <Form.Item name="days" label={t('days')} rules={[{ required: true, message: t('required') }]}>
            <InputNumber min={-3650} max={3650} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="hours" label={t('hours')}>
            <InputNumber min={-23} max={23} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </>
      )}
      <Form.Item
        name="reason"
        label={t('reasonHint')}
        rules={[{ required: true, min: 3, whitespace: true, message: t('required') }]}
      >
        <Input.TextArea rows={2} maxLength={500} />
      </Form.Item>
    </FormModal>
  );
}
