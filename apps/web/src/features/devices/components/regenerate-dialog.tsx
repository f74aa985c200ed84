import { Modal } from 'antd';
import type { Device } from '@skyway/shared/devices';
import { useTranslation } from 'react-i18next';
import { DIALOG_WIDTH } from '../../../components/dialog-width.ts';
import { MESSAGE_SECONDS, showSuccess } from '../../../lib/toast.ts';
import { useRegenerateDevice } from '../api/devices.ts';
import { useDeviceName } from './device-name.ts';

interface Props {
  /** The slot whose link would be reset; null while the dialog is closed. */
  device: Device | null;
  onClose: () => void;
}

/** Asks before a slot gets a new link and password, since the old ones stop working at once. */
export function RegenerateDialog({ device, onClose }: Props) {
  const { t } = useTranslation('devices');
  const regenerate = useRegenerateDevice();
  const deviceName = useDeviceName();

  async function confirm() {
    if (!device) return;
    try {
      await regenerate.mutateAsync(device.id);
      showSuccess(t('regenerate.done'), MESSAGE_SECONDS);
      onClose();
    } catch {
      // The api client has shown the server's message; the dialog stays for another try.
    }
  }

  return (
    <Modal
      open={device !== null}
      width={DIALOG_WIDTH}
      title={device && t('regenerate.title', { name: deviceName(device) })}
      okText={t('regenerate.confirm')}
      okButtonProps={{ danger: true }}
      cancelText={t('regenerate.cancel')}
      confirmLoading={regenerate.isPending}
      onOk={() => void confirm()}
      onCancel={onClose}
    >
      <p>{t('regenerate.text')}</p>
    </Modal>
  );
}
