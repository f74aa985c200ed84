import { Form, Input, Select } from 'antd';
import { DEVICE_NAME_MAX, DEVICE_PLATFORMS, type Device, type DevicePlatform } from '@skyway/shared/devices';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { useRenameDevice } from '../api/devices.ts';
import { useDeviceName } from './device-name.ts';

interface Values {
  name: string;
  platform: DevicePlatform;
}

interface Props {
  /** The slot being renamed; null while the dialog is closed. */
  device: Device | null;
  /** Marks a slot that has no platform yet: the platform this page is open on, a good first guess. */
  visitorPlatform: DevicePlatform | null;
  onClose: () => void;
}

/** Names a slot and says what it runs on (its guide and import buttons follow the platform). */
export function RenameDialog({ device, visitorPlatform, onClose }: Props) {
  const { t } = useTranslation('devices');
  const [form] = Form.useForm<Values>();
  const rename = useRenameDevice();
  const deviceName = useDeviceName();

  return (
    <FormDialog
      open={device !== null}
      onClose={onClose}
      name="rename-device"
      title={t('rename.title')}
      okText={t('rename.save')}
      form={form}
      pending={rename.isPending}
      submit={async (values) => {
        if (!device) return '';
        await rename.mutateAsync({ id: device.id, name: values.name.trim(), platform: values.platform });
        return t('rename.saved');
      }}
    >
      {device && (
        <>
          <Form.Item
            name="name"
            label={t('rename.name')}
            initialValue={deviceName(device)}
            rules={[
              { required: true, whitespace: true, message: t('rename.nameRequired') },
              { max: DEVICE_NAME_MAX, message: t('rename.nameTooLong', { max: DEVICE_NAME_MAX }) },
            ]}
          >
            <Input autoComplete="off" maxLength={DEVICE_NAME_MAX} />
          </Form.Item>
          <Form.Item
            name="platform"
            label={t('rename.platform')}
            initialValue={device.platform ?? visitorPlatform ?? 'other'}
          >
            <Select
              options={DEVICE_PLATFORMS.map((platform) => ({
                value: platform,
                label: t(`platforms.${platform}`),
              }))}
            />
          </Form.Item>
        </>
      )}
    </FormDialog>
  );
}
