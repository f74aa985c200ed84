import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SESSION_KEY } from '../../../lib/session.ts';
import { TotpCodeItem } from './auth-card.tsx';
import { FormModal } from '../../../components/form-modal.tsx';
import { RecoveryCodes } from './recovery-codes.tsx';
import { makeRecoveryCodes } from '../api/make-recovery-codes.ts';

interface Confirmation {
  password: string;
  code: string;
}

/**
 * "Make new recovery codes": the member's password and a code of their app, then the ten new codes,
 * shown this once. All the member's earlier codes stop working.
 */
export function NewRecoveryCodesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['session', 'common']);
  const client = useQueryClient();
  const [form] = Form.useForm<Confirmation>();
  const [codes, setCodes] = useState<string[] | null>(null);
  const saved = () => {
    setCodes(null);
    // The session counts the codes left (and the older kind's notice goes).
    void client.invalidateQueries({ queryKey: SESSION_KEY });
  };
  return (
    <>
      <FormModal<Confirmation>
        open={open}
        title={t('common:newRecoveryCodes')}
        okText={t('newRecoveryCodesMake')}
        form={form}
        initialValues={{}}
        onClose={onClose}
        onSubmit={async (values) => {
          const reply = await makeRecoveryCodes(values);
          setCodes(reply.recovery_codes);
        }}
        testId="new-recovery-codes-form"
      >
        <Typography.Paragraph>{t('newRecoveryCodesIntro')}</Typography.Paragraph>
        <Form.Item
          name="password"
          label={t('password')}
          rules={[{ required: true, message: t('common:required') }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <TotpCodeItem />
      </FormModal>
      <Modal
        open={codes !== null}
        title={t('newRecoveryCodesDone')}
        closable={false}
        maskClosable={false}
        keyboard={false}
        footer={
          <Button type="primary" onClick={saved}>
            {t('recoveryCodesKept')}
          </Button>
        }
      >
        {codes && <RecoveryCodes codes={codes} />}
      </Modal>
    </>
  );
}
