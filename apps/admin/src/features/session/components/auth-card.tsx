import { Card, Flex, Form, Input } from 'antd';
import { TOTP_DIGITS } from '@skyway/shared/staff';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../../../components/language-select.tsx';

/** The frame of the screens before signing in: the language menu and one card. */
export function AuthCard({ children, width = 400 }: { children: ReactNode; width?: number }) {
  const { t } = useTranslation(['session', 'common']);
  return (
    <Flex vertical align="center" style={{ minHeight: '100vh', padding: '48px 16px', background: '#f5f5f5' }}>
      <Flex justify="flex-end" style={{ width: '100%', maxWidth: width }}>
        <LanguageSelect />
      </Flex>
      <Card title={t('common:brand')} style={{ width: '100%', maxWidth: width, marginTop: 16 }}>
        {children}
      </Card>
    </Flex>
  );
}

/** The field of a code from the authenticator app (set-up and sign-in). */
export function TotpCodeItem() {
  const { t } = useTranslation(['session', 'common']);
  return (
    <Form.Item
      name="code"
      label={t('totpCode')}
      rules={[
        { required: true, pattern: new RegExp(`^\\d{${TOTP_DIGITS}}$`), message: t('common:required') },
      ]}
    >
      <Input inputMode="numeric" autoComplete="one-time-code" maxLength={TOTP_DIGITS} />
    </Form.Item>
  );
}
