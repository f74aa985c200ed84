import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { App, Button, List, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { saveFile } from '../../../lib/download.ts';

/**
 * Recovery codes just made, shown this once (set-up, or new codes): the list, and buttons that copy
 * them or save them as a text file.
 */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation('session');
  const { message } = App.useApp();
  const text = `${codes.join('\n')}\n`;
  return (
    <>
      <Typography.Paragraph>{t('recoveryCodesIntro')}</Typography.Paragraph>
      <List
        data-testid="recovery-codes"
        bordered
        size="small"
        dataSource={codes}
        renderItem={(code) => <List.Item style={{ fontFamily: 'monospace' }}>{code}</List.Item>}
        style={{ marginBottom: 16 }}
      />
      <Space style={{ marginBottom: 16 }}>
        <Button
          icon={<CopyOutlined />}
          onClick={() =>
            void navigator.clipboard.writeText(text).then(
              () => message.success(t('recoveryCodesCopied')),
              () => message.error(t('recoveryCodesNotCopied')),
            )
          }
        >
          {t('recoveryCodesCopy')}
        </Button>
        <Button
          icon={<DownloadOutlined />}
          onClick={() =>
            saveFile('recovery-codes', 'txt', new Blob([text], { type: 'text/plain;charset=utf-8' }))
          }
        >
          {t('recoveryCodesDownload')}
        </Button>
      </Space>
    </>
  );
}
