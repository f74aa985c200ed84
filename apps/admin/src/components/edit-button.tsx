import { EditOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

/** A row's small Edit button, named and with its tooltip, as every list screen has it. */
export function EditButton(props: { onClick: () => void }) {
  const { t } = useTranslation('common');
  return (
    <Tooltip title={t('edit')}>
      <Button size="small" icon={<EditOutlined />} aria-label={t('edit')} onClick={props.onClick} />
    </Tooltip>
  );
}
