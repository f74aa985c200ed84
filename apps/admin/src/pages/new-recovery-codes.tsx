import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api.ts';
import { SESSION_KEY } from '../session.ts';
import { TotpCodeItem } from './auth-card.tsx';
import { FormModal } from './form-modal.tsx';
import { RecoveryCodes } from './recovery-codes.tsx';

interface Confirmation {
  password: string;
  code: string;
}

/**
 * "Make new recovery codes": the member's password and a code of their app, then the ten new codes,
 * shown this once. All the member's earlier codes stop working.
 */
export function NewRecoveryCodesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
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
        title={t('newRecoveryCodes')}
        okText={t('newRecoveryCodesMake')}
        form={form}
        initialValues={{}}
        onClose={onClose}
        onSubmit={async (values) => {
          const reply = await api<{ recovery_codes: string[] }>('POST', '/session/recovery-codes', values);
          setCodes(reply.recovery_codes);
        }}
        testId="new-recovery-codes-form"
      >
        <Typography.Paragraph>{t('newRecoveryCodesIntro')}</Typography.Paragraph>
        <Form.Item name="password" label={t('password')} rules={[{ required: true, message: t('required') }]}>
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
