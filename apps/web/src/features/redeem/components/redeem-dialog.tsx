import { useState } from 'react';
import { Alert, Button, Form, Input, Modal } from 'antd';
import { formatDateTime } from '@skyway/shared/dates';
import { ApiError } from '@skyway/shared/api-error';
import { useTranslation } from 'react-i18next';
import { DIALOG_WIDTH } from '../../../components/dialog-width.ts';
import { MESSAGE_SECONDS, showSuccess } from '../../../lib/toast.ts';
import { useRedeemCode } from '../api/redeem-code.ts';

/**
 * The console's Redeem dialog (PRODUCT.md section 9): a code as the customer has it (case, spaces and
 * dashes do not matter), redeemed at once; the server's refusal (in the customer's language) shows
 * under the field, the success as a message with the new end of access.
 */
export function RedeemDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('redeem');
  const [form] = Form.useForm<{ code: string }>();
  const [failure, setFailure] = useState<string | null>(null);
  const redeem = useRedeemCode();

  async function submit({ code }: { code: string }) {
    setFailure(null);
    try {
      const result = await redeem.mutateAsync(code);
      showSuccess(t('redeemed', { date: formatDateTime(result.expire_user) }), MESSAGE_SECONDS);
      onClose();
    } catch (error) {
      console.warn('Redeem: the code was refused', error);
      setFailure(error instanceof ApiError ? error.message : String(error));
    }
  }

  return (
    <Modal
      open={open}
      width={DIALOG_WIDTH}
      centered
      title={t('title')}
      onCancel={onClose}
      afterClose={() => {
        setFailure(null);
        form.resetFields();
      }}
      forceRender
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('cancel')}
        </Button>,
        <Button key="redeem" type="primary" loading={redeem.isPending} onClick={() => form.submit()}>
          {t('redeem')}
        </Button>,
      ]}
    >
      <p>{t('body')}</p>
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item
          name="code"
          label={t('label')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        >
          <Input
            autoFocus
            autoComplete="off"
            spellCheck={false}
            maxLength={64}
            placeholder={t('placeholder')}
            onChange={() => setFailure(null)}
          />
        </Form.Item>
      </Form>
      {failure && <Alert type="error" showIcon title={failure} role="alert" />}
    </Modal>
  );
}
